import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import {
  ConfigModule,
  DatabaseConfig,
  HttpConfig,
  ListenConfig,
  LogConfig,
  ProvidersConfig,
  RedisConfig,
  ShutdownConfig,
  StorageConfig,
  SecurityConfig,
  StuckTaskSweepConfig,
  TaskConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule, QueueDepthMetrics, ReadinessRegistry } from '@genhub/observability';
import { PubSubService, QueueModule } from '@genhub/queue';
import { StorageModule } from '@genhub/storage';
import { TaskFlowModule } from '@genhub/task-flow';
import { RunTaskProcessor } from './run-task/run-task.processor';
import { StuckTaskSweepScheduler } from './sweep-stuck-tasks/stuck-task-sweep.scheduler';

/** Runs tasks from the tasks queue and sweeps stuck ones. Serves only /health, /ready and /metrics. */
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
            ProvidersConfig,
            StuckTaskSweepConfig,
          ],
          env,
          defaults: { PORT: '3001' },
        }),
        ObservabilityModule.forRoot('task-worker'),
        DatabaseModule,
        QueueModule.forRoot(),
        StorageModule.forRoot(),
        // A run settles its reservation in the statement that ends it (the task flow).
        TaskFlowModule.forWorker(),
      ],
      providers: [RunTaskProcessor, QueueDepthMetrics, StuckTaskSweepScheduler],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
