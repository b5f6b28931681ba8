import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import {
  ConfigModule,
  DatabaseConfig,
  HttpConfig,
  ListenConfig,
  LogConfig,
  RedisConfig,
  ShutdownConfig,
  StorageConfig,
  SecurityConfig,
  WebhookConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule, ReadinessRegistry } from '@genhub/observability';
import { PubSubService, QueueModule } from '@genhub/queue';
import { StorageModule } from '@genhub/storage';

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
            StorageConfig,
            SecurityConfig,
            WebhookConfig,
          ],
          env,
          defaults: { PORT: '3002' },
        }),
        ObservabilityModule.forRoot('webhook-dispatcher'),
        DatabaseModule,
        QueueModule.forRoot(),
        StorageModule.forRoot(),
      ],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
