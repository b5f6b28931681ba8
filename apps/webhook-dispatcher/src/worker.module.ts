import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import {
  ConfigModule,
  DatabaseConfig,
  HttpConfig,
  ListenConfig,
  LogConfig,
  RedisConfig,
  ShutdownConfig,
  SecurityConfig,
  WebhookConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule, QueueDepthMetrics, ReadinessRegistry } from '@genhub/observability';
import { PubSubService, QueueModule } from '@genhub/queue';

import { AccountsDataAccessModule } from '@genhub/accounts-data-access';
import { WebhookDispatchModule, WebhookSecretSource } from '@genhub/webhooks-feature';
import { AccountsWebhookSecretSource } from './deliver-webhook/accounts-webhook-secret.adapter';
import { DeliverWebhookProcessor } from './deliver-webhook/deliver-webhook.processor';

/** Delivers signed webhooks from the webhooks queue. Serves only /health, /ready and /metrics. */
@Module({})
export class WorkerModule implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessRegistry,
    private readonly pubsub: PubSubService,
  ) {}

  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: WorkerModule,
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
            WebhookConfig,
          ],
          env,
          // Up to WEBHOOK_CONCURRENCY short queries at once: a larger pool than the others'.
          defaults: { PORT: '3002', DATABASE_POOL_SIZE: '30' },
        }),
        ObservabilityModule.forRoot('webhook-dispatcher'),
        DatabaseModule,
        QueueModule.forRoot(),

        WebhookDispatchModule.register({
          imports: [AccountsDataAccessModule],
          secretSource: { provide: WebhookSecretSource, useClass: AccountsWebhookSecretSource },
        }),
      ],
      providers: [DeliverWebhookProcessor, QueueDepthMetrics],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
