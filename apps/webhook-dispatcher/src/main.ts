import './tracing';
import 'reflect-metadata';
import { bootstrapService } from '@genhub/observability';
import { WorkerModule } from './worker.module';

void bootstrapService({
  service: 'webhook-dispatcher',
  module: (env) => WorkerModule.forRoot(env),
  env: process.env,
});
