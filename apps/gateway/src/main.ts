import './tracing';
import 'reflect-metadata';
import { bootstrapService } from '@genhub/observability';
import { AppModule } from './app.module';
import { registerMultipart } from './files/multipart.plugin';
import { configureGateway, gatewayFastifyOptions } from './gateway.setup';

void bootstrapService({
  service: 'gateway',
  module: (env) => AppModule.forRoot(env),
  fastifyOptions: gatewayFastifyOptions,
  // Multipart must be registered before the gateway's set-up initialises the app.
  configure: async (app) => {
    await registerMultipart(app);
    await configureGateway(app);
  },
  env: process.env,
});
