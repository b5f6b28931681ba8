import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
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
import { StorageModule } from '@genhub/storage';
import { CdnController } from './cdn/cdn.controller';

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
        StorageModule.forRoot(),
      ],
      controllers: [CdnController],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
