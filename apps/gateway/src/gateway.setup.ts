import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import { HttpConfig, loadConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';
import { registerQueueBoard } from './admin/queue-board.plugin';
import { registerMultipart } from './files/multipart.plugin';
import { GatewayExceptionFilter } from './filters/gateway-exception.filter';
import { gatewayValidationPipe } from './filters/validation.pipe';
import { installUnreadBodyPolicy } from './transport/unread-body.hook';

/** Fastify options of the gateway: the JSON body limit (BODY_LIMIT_BYTES). */
export function gatewayFastifyOptions(env: NodeJS.ProcessEnv): FastifyServerOptions {
  return { bodyLimit: loadConfig(HttpConfig, env, { PORT: '3000' }).BODY_LIMIT_BYTES };
}

/**
 * Everything the gateway adds to a created app before it listens; main.ts and
 * the tests both call it, so tests run the production set-up.
 */
export async function configureGateway(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  // Multipart (the uploads route) must be registered before the app is initialised.
  await registerMultipart(app);

  // Every answer names its request id, so a 500 can be found in the logs.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  installUnreadBodyPolicy(fastify);

  app.useGlobalFilters(app.get(GatewayExceptionFilter));
  app.useGlobalPipes(gatewayValidationPipe());
  await registerQueueBoard(app);
  // Nest registers its JSON parser during init; ours replaces it afterwards.
  await app.init();

  // JSON as Fastify parses it (prototype-poisoning checks included), except that
  // an empty body with a JSON content type is no body rather than an error.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  // Bodies are JSON (or multipart, registered by the uploads route): anything else is a 400.
  for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded'])
    if (fastify.hasContentTypeParser(type)) fastify.removeContentTypeParser(type);
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, (error, value) => {
      if (error)
        done(
          new AppException(AppErrorCode.InvalidRequest, {
            message: 'Malformed JSON in request body',
          }),
          undefined,
        );
      else done(null, value);
    });
  });
}
