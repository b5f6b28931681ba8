import './tracing';
import 'reflect-metadata';
import { bootstrapService } from '@genhub/observability';
import { WorkerModule } from './worker.module';

void bootstrapService({
  service: 'task-worker',
  module: (env) => WorkerModule.forRoot(env),
  env: process.env,
});
