import 'reflect-metadata';
import { bootstrapService } from '@genhub/observability';
import { AppModule } from './app.module';
import { registerMultipart } from './files/multipart.plugin';

void bootstrapService({
  service: 'gateway',
  module: (env) => AppModule.forRoot(env),
  env: process.env,
  configure: (app) => registerMultipart(app),
});
