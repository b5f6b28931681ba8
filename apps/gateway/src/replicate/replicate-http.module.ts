import { Module } from '@nestjs/common';
import { AccountsDataAccessModule } from '@genhub/accounts-data-access';
import { TasksDataAccessModule } from '@genhub/tasks-data-access';
import { GATEWAY_TASK_ENGINE } from '../tasks/tasks-http.module';
import { PublicLinks } from '../transport/public-links.service';
import { ReplicateModelsController } from './replicate-models.controller';
import { ReplicatePredictionsController } from './replicate-predictions.controller';

/**
 * The Replicate-compatible API under `/replicate/v1` (decision 0137), on the
 * gateway's one task engine (never a second: GATEWAY_TASK_ENGINE). Needs the
 * global AccountsFeatureModule (ApiKeyGuard) and ModelCatalogue.
 */
@Module({
  imports: [GATEWAY_TASK_ENGINE, TasksDataAccessModule, AccountsDataAccessModule],
  controllers: [ReplicatePredictionsController, ReplicateModelsController],
  providers: [PublicLinks],
})
export class ReplicateHttpModule {}
