import { Module } from '@nestjs/common';
import { TaskFlowModule } from '@genhub/task-flow';
import { PredictionsController } from './predictions.controller';
import { TasksController } from './tasks.controller';

/**
 * Submit, result, sync, delete and the model list, from the task flow (the
 * submit reserves on the ledger in the task's own statement). Needs the
 * global AccountsFeatureModule (ApiKeyGuard), StorageModule and QueueModule.
 */
@Module({
  imports: [TaskFlowModule.forGateway()],
  controllers: [TasksController, PredictionsController],
})
export class TasksHttpModule {}
