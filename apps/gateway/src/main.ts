import './tracing';
import 'reflect-metadata';
import { bootstrapService } from '@genhub/observability';
import { AppModule } from './app.module';
import { configureGateway, gatewayFastifyOptions } from './gateway-setup.util';

void bootstrapService({
  service: 'gateway',
  module: (env) => AppModule.forRoot(env),
  fastifyOptions: gatewayFastifyOptions,
  configure: configureGateway,
  env: process.env,
});
