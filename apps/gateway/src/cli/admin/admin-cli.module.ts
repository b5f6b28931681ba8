import { DynamicModule, Global, Module } from '@nestjs/common';
import { AccountsFeatureModule } from '@genhub/accounts-feature';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import {
  AdminConfig,
  ConfigModule,
  DatabaseConfig,
  HttpConfig,
  ModeConfig,
  PepperConfig,
  RedisConfig,
  SecurityConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ReadinessRegistry } from '@genhub/observability';
import { PubSubService } from '@genhub/queue';
import { TasksDataAccessModule } from '@genhub/tasks-data-access';
import { ListQueueAccountsUseCase } from '@genhub/tasks-feature';
import { LedgerAccountBalances } from '../../admin/ledger-account-balances.adapter';
import { CliAccountScheduling } from './cli-account-scheduling.adapter';

/** What the gateway's modules expect from their surroundings, without HTTP, logs or queues. */
@Global()
@Module({
  providers: [ReadinessRegistry, PubSubService],
  exports: [ReadinessRegistry, PubSubService],
})
class CliSupportModule {}

/**
 * The admin CLI's application context: the same use-cases as the admin API
 * (so a revocation from the terminal also reaches every gateway's cache).
 * Commands added by other domains import their modules here.
 */
@Module({})
export class AdminCliModule {
  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: AdminCliModule,
      imports: [
        ConfigModule.forRoot({
          pieces: [
            ModeConfig,
            HttpConfig,
            DatabaseConfig,
            RedisConfig,
            SecurityConfig,
            PepperConfig,
            AdminConfig,
          ],
          env,
          defaults: { PORT: '3000' },
        }),
        CliSupportModule,
        DatabaseModule,
        AccountsFeatureModule.forRoot({
          imports: [BillingDataAccessModule],
          balances: LedgerAccountBalances,
          scheduling: CliAccountScheduling,
        }),
        TasksDataAccessModule,
      ],
      // The queue by account (`list-queue`): the tasks domain's read, without its other services.
      providers: [ListQueueAccountsUseCase],
    };
  }
}
