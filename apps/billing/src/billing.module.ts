import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import {
  ConfigModule,
  DatabaseConfig,
  HttpConfig,
  LedgerAuditConfig,
  ListenConfig,
  LogConfig,
  RedisConfig,
  ShutdownConfig,
  SecurityConfig,
} from '@genhub/config';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import { BillingFeatureModule } from '@genhub/billing-feature';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule, QueueDepthMetrics, ReadinessRegistry } from '@genhub/observability';
import { PubSubService, QueueModule } from '@genhub/queue';

import { LedgerAuditScheduler } from './ledger-audit/ledger-audit.scheduler';
import { OpenReservationsMetrics } from './settle-task/open-reservations.metrics';
import { SettleTaskProcessor } from './settle-task/settle-task.processor';

/** Settles reservations from the billing queue. Serves only /health, /ready and /metrics. */
@Module({})
export class BillingModule implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessRegistry,
    private readonly pubsub: PubSubService,
  ) {}

  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: BillingModule,
      imports: [
        ConfigModule.forRoot({
          pieces: [
            HttpConfig,
            ListenConfig,
            LogConfig,
            ShutdownConfig,
            DatabaseConfig,
            RedisConfig,
            SecurityConfig,
            LedgerAuditConfig,
          ],
          env,
          defaults: { PORT: '3003' },
        }),
        ObservabilityModule.forRoot('billing'),
        DatabaseModule,
        QueueModule.forRoot(),

        BillingDataAccessModule,
        BillingFeatureModule,
      ],
      providers: [
        SettleTaskProcessor,
        OpenReservationsMetrics,
        LedgerAuditScheduler,
        QueueDepthMetrics,
      ],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
