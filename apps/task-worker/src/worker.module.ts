import { DynamicModule, Module } from '@nestjs/common';
import { ServiceModule } from '@genhub/service';
import { StorageModule } from '@genhub/storage';
import { TaskEngineModule } from '@genhub/task-engine';
import { RunTaskProcessor } from './run-task/run-task.processor';
import { StuckTaskSweepScheduler } from './sweep-stuck-tasks/stuck-task-sweep.scheduler';

/** Runs tasks from the tasks queue and sweeps stuck ones. Serves only /health, /ready and /metrics. */
@Module({})
export class WorkerModule {
  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ServiceModule.forRoot('task-worker', env),
        StorageModule.forRoot(),
        // A run settles its reservation in the statement that ends it (the task engine).
        TaskEngineModule.forWorker(),
      ],
      providers: [RunTaskProcessor, StuckTaskSweepScheduler],
    };
  }
}
