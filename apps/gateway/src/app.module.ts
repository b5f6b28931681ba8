import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { AccountsFeatureModule } from '@genhub/accounts-feature';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import {
  AdminConfig,
  ConfigModule,
  DatabaseConfig,
  HttpConfig,
  ListenConfig,
  LogConfig,
  RedisConfig,
  SecurityConfig,
  ShutdownConfig,
  StorageConfig,
  TaskConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule, ReadinessRegistry } from '@genhub/observability';
import { PubSubService, QueueModule } from '@genhub/queue';
import { AdminModule } from './admin/admin.module';
import { LedgerAccountBalances } from './admin/ledger-account-balances';
import { GatewayExceptionFilter } from './filters/gateway-exception.filter';

export const GATEWAY_CONFIG = [
  HttpConfig,
  ListenConfig,
  LogConfig,
  ShutdownConfig,
  DatabaseConfig,
  RedisConfig,
  StorageConfig,
  AdminConfig,
  SecurityConfig,
  TaskConfig,
];

/** The public API, the admin API and (in embedded mode) the /cdn route. */
@Module({})
export class AppModule implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessRegistry,
    private readonly pubsub: PubSubService,
  ) {}

  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ pieces: GATEWAY_CONFIG, env, defaults: { PORT: '3000' } }),
        ObservabilityModule.forRoot('gateway'),
        DatabaseModule,
        QueueModule.forRoot(),
        AccountsFeatureModule.forRoot({
          imports: [BillingDataAccessModule],
          balances: LedgerAccountBalances,
        }),
        AdminModule,
      ],
      providers: [GatewayExceptionFilter],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
