import 'reflect-metadata';
import { bootstrapService } from '@genhub/observability';
import { AppModule } from './app.module';

void bootstrapService({
  service: 'gateway',
  module: (env) => AppModule.forRoot(env),
  env: process.env,
});
