import type { ModuleMetadata } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import {
  ConfigModule,
  DatabaseConfig,
  LogConfig,
  PepperConfig,
  ProvidersConfig,
  RedisConfig,
  SecurityConfig,
  StorageConfig,
  TaskConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule } from '@genhub/observability';
import { QueueModule } from '@genhub/queue';
import { FairRunner } from './run/fair-runner.service';
import { TaskEngineModule } from './task-engine.module';

/**
 * The engine as the gateway and the task-worker wire it, both halves in one
 * module, on this run's PostgreSQL and Redis (the specs' shared set-up; a
 * `.fixture.ts` is test code, never shipped). The specs run tasks themselves
 * (`RunTaskUseCase.execute`), so the fair runner is left out: it would take
 * their tasks from the stage and race them (it has a spec of its own).
 */
export function engineTestingModule(options: {
  /** The service name in metrics and logs. */
  name: string;
  /** OBJECT_STORAGE: an in-memory store or the real StorageModule. */
  storage: NonNullable<ModuleMetadata['imports']>[number];
  /** The environment the configuration reads, given by the spec (its own settings added). */
  env: NodeJS.ProcessEnv;
  imports?: ModuleMetadata['imports'];
}): TestingModuleBuilder {
  return Test.createTestingModule({
    imports: [
      ConfigModule.forRoot({
        pieces: [
          LogConfig,
          DatabaseConfig,
          RedisConfig,
          StorageConfig,
          SecurityConfig,
          PepperConfig,
          TaskConfig,
          ProvidersConfig,
        ],
        env: { ...options.env, LOG_LEVEL: 'silent' },
      }),
      ObservabilityModule.forRoot(options.name),
      DatabaseModule,
      QueueModule.forRoot(),
      options.storage,
      TaskEngineModule.forGateway(),
      TaskEngineModule.forWorker(),
      ...(options.imports ?? []),
    ],
  })
    .overrideProvider(FairRunner)
    .useValue({ started: () => undefined, ended: () => undefined, take: () => undefined });
}
