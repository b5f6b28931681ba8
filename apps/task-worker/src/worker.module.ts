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
  TaskConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule, ReadinessRegistry } from '@genhub/observability';
import { PubSubService, QueueModule } from '@genhub/queue';
import { StorageModule } from '@genhub/storage';
import { TasksFeatureModule } from '@genhub/tasks-feature';
import { RunTaskProcessor } from './run-task/run-task.processor';

/** Runs tasks from the tasks queue. Serves only /health, /ready and /metrics. */
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
            TaskConfig,
          ],
          env,
          defaults: { PORT: '3001' },
        }),
        ObservabilityModule.forRoot('task-worker'),
        DatabaseModule,
        QueueModule.forRoot(),
        StorageModule.forRoot(),
        TasksFeatureModule.forWorker(),
      ],
      providers: [RunTaskProcessor],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
