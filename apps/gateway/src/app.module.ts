import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { AccountsFeatureModule } from '@genhub/accounts-feature';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import {
  AdminConfig,
  ChatConfig,
  ConfigModule,
  DatabaseConfig,
  HttpConfig,
  ListenConfig,
  LogConfig,
  ProvidersConfig,
  RedisConfig,
  SecurityConfig,
  ShutdownConfig,
  StorageConfig,
  TaskConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule, QueueDepthMetrics, ReadinessRegistry } from '@genhub/observability';
import { PubSubService, QueueModule } from '@genhub/queue';
import { StorageModule, SweepExpiredUploadsUseCase, UploadFileUseCase } from '@genhub/storage';
import { AdminModule } from './admin/admin.module';
import { LedgerAccountBalances } from './admin/ledger-account-balances.adapter';
import { BillingHttpModule } from './billing/billing-http.module';
import { CdnController } from './cdn/cdn.controller';
import { ChatHttpModule } from './chat/chat-http.module';
import { DocsModule } from './docs/docs.module';
import { FilesController } from './files/files.controller';
import { UploadRetentionScheduler } from './files/upload-retention.scheduler';
import { GatewayExceptionFilter } from './filters/gateway-exception.filter';
import { TasksHttpModule } from './tasks/tasks-http.module';
import { WebhooksHttpModule } from './webhooks/webhooks-http.module';

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
  ChatConfig,
  ProvidersConfig,
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
        StorageModule.forRoot(),
        // Authentication is global: every HTTP module below uses its guard.
        AccountsFeatureModule.forRoot({
          imports: [BillingDataAccessModule],
          balances: LedgerAccountBalances,
        }),
        AdminModule,
        TasksHttpModule,
        BillingHttpModule,
        WebhooksHttpModule,
        ChatHttpModule.forRoot(),
        DocsModule,
      ],
      controllers: [CdnController, FilesController],
      providers: [
        GatewayExceptionFilter,
        UploadFileUseCase,
        SweepExpiredUploadsUseCase,
        UploadRetentionScheduler,
        QueueDepthMetrics,
      ],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
