import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import { HttpConfig, loadConfig, StorageConfig } from '@genhub/config';
import { installApiClientMetrics, MetricsService } from '@genhub/observability';
import { registerQueueBoard } from './admin/queue-board.plugin';
import { registerMultipart } from './files/multipart.plugin';
import { GatewayExceptionFilter } from './filters/gateway-exception.filter';
import { gatewayValidationPipe } from './filters/validation.pipe';
import {
  answerClientError,
  answerFrameworkError,
  MAX_PATH_SEGMENT_LENGTH,
} from './transport/framework-refusals.util';
import { registerConsoleFiles } from './console/console-files.plugin';
import { registerCors } from './transport/cors.plugin';
import { registerJsonBodyParser } from './transport/json-body.parser';
import { registerMediaBodyParser } from './transport/media-body.parser';
import { installStorableUrlCheck } from './transport/storable-url.hook';
import { SecurityHeaders } from './transport/security-headers.util';
import { installUnreadBodyPolicy } from './transport/unread-body.hook';

/**
 * Fastify options of the gateway: the JSON body limit (BODY_LIMIT_BYTES), and
 * the transport's own refusals answered in the response families' shapes.
 */
export function gatewayFastifyOptions(env: NodeJS.ProcessEnv): FastifyServerOptions {
  return {
    bodyLimit: loadConfig(HttpConfig, env, { PORT: '3000' }).BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_LENGTH },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  };
}

/**
 * Everything the gateway adds to a created app before it listens; main.ts and
 * the tests both call it, so tests run the production set-up.
 */
export async function configureGateway(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  // Multipart (the uploads route) and CORS (its preflight route) are registered before init.
  await registerMultipart(app);
  await registerCors(app);

  // Every answer names its request id, so a 500 can be found in the logs, and
  // carries the security headers of its surface (console, docs, API; decision 0128).
  const securityHeaders = new SecurityHeaders(app.get(StorageConfig));
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    securityHeaders.apply(request, reply);
    done();
  });
  installUnreadBodyPolicy(fastify);
  installStorableUrlCheck(fastify);
  // Which SDKs call us (the WaveSpeed SDKs name themselves in X-Client-Name).
  installApiClientMetrics(fastify, app.get(MetricsService));

  app.useGlobalFilters(app.get(GatewayExceptionFilter));
  app.useGlobalPipes(gatewayValidationPipe());
  await registerQueueBoard(app);
  await registerConsoleFiles(app);
  // Nest registers its JSON parser during init; ours replaces it afterwards.
  await app.init();

  registerJsonBodyParser(fastify);
  registerMediaBodyParser(fastify);
}
