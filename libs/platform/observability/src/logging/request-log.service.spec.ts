import Fastify from 'fastify';
import { pinoHttp } from 'pino-http';
import { Writable } from 'node:stream';
import { loggerOptions, requestId } from './logger-options.config';
import { RequestLog, withoutUrlSecrets } from './request-log.service';

/**
 * A Fastify app with the request log installed, writing to an array of parsed
 * lines through the logger the apps use: pino-http's, built from loggerOptions
 * (its req/res serializers included), as nestjs-pino builds its root logger.
 */
async function appLogging(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, next) {
      lines.push(JSON.parse(String(chunk)));
      next();
    },
  });
  const logger = pinoHttp(loggerOptions('test', level).pinoHttp as object, sink).logger;
  const app = Fastify({ genReqId: requestId });
  new RequestLog(() => logger).install(app);
  app.get('/ok', async () => ({ ok: true }));
  app.get('/boom', async (_req, reply) => reply.status(503).send({ no: true }));
  app.get('/health', async () => 'up');
  await app.ready();
  return { app, lines };
}

describe('RequestLog', () => {
  it('writes one "request completed" line naming the request id, method, URL and status', async () => {
    const { app, lines } = await appLogging('info');
    await app.inject({ url: '/ok?x=1', headers: { 'x-request-id': 'req-42' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      service: 'test',
      msg: 'request completed',
      request_id: 'req-42',
      req: { method: 'GET', url: '/ok?x=1' },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0].responseTime).toBe('number');
    await app.close();
  });

  it('never writes the signed token or ticket a URL carries', async () => {
    const { app, lines } = await appLogging('info');
    await app.inject({ url: '/ok?token=abc.def&x=1' });
    await app.inject({ url: '/ok?x=1&TICKET=secret' });
    expect(lines.map((line) => (line.req as { url: string }).url)).toEqual([
      '/ok?token=[redacted]&x=1',
      '/ok?x=1&TICKET=[redacted]',
    ]);
    await app.close();
  });

  it('logs a 5xx answer at error level, and probes not at all', async () => {
    const { app, lines } = await appLogging('info');
    await app.inject({ url: '/health' });
    await app.inject({ url: '/boom' });
    expect(
      lines.map((l) => [l.level, l.msg, (l.res as { statusCode: number }).statusCode]),
    ).toEqual([[50, 'request failed', 503]]);
    await app.close();
  });

  it('writes nothing for a successful request when the level is above info', async () => {
    const { app, lines } = await appLogging('warn');
    await app.inject({ url: '/ok' });
    await app.inject({ url: '/boom' });
    expect(lines.map((l) => l.msg)).toEqual(['request failed']);
    await app.close();
  });

  it('redacts keys, tokens and presigned signatures, also percent-encoded inside another URL', () => {
    expect(withoutUrlSecrets('/x?api_key=k1&apikey=k2&key=k3&access_token=t&keep=1')).toBe(
      '/x?api_key=[redacted]&apikey=[redacted]&key=[redacted]&access_token=[redacted]&keep=1',
    );
    expect(
      withoutUrlSecrets(
        'Media URL https://b.s3.amazonaws.com/a.png?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=abc answered HTTP 403',
      ),
    ).toBe(
      'Media URL https://b.s3.amazonaws.com/a.png?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted] answered HTTP 403',
    );
    expect(withoutUrlSecrets('/v1/m?webhook=https%3A%2F%2Fh.example%2Fhook%3Ftoken%3Dsecret')).toBe(
      '/v1/m?webhook=https%3A%2F%2Fh.example%2Fhook%3Ftoken%3D[redacted]',
    );
    expect(withoutUrlSecrets('/v1/models?monkey=1&category=image')).toBe(
      '/v1/models?monkey=1&category=image',
    );
  });
});

/** Lines written through the apps' logger (loggerOptions), parsed. */
function appLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, next) {
      lines.push(JSON.parse(String(chunk)));
      next();
    },
  });
  return { logger: pinoHttp(loggerOptions('test', 'info').pinoHttp as object, sink).logger, lines };
}

describe('the apps’ logger (loggerOptions)', () => {
  const url = 'https://gw.example/api/v3/predictions/t1/events?token=ev1.secret';

  it('redacts credentials in the URLs a message quotes, with or without a merged object', () => {
    const { logger, lines } = appLogger();
    logger.warn(`could not follow ${url}`);
    logger.warn({ task_id: 't1' }, `could not follow ${url}`);
    logger.info('upload %s', 'https://gw.example/api/v3/media/uploads/u1?ticket=tk.secret');
    expect(lines.map((l) => l.msg)).toEqual([
      'could not follow https://gw.example/api/v3/predictions/t1/events?token=[redacted]',
      'could not follow https://gw.example/api/v3/predictions/t1/events?token=[redacted]',
      'upload https://gw.example/api/v3/media/uploads/u1?ticket=[redacted]',
    ]);
  });

  it('redacts credentials in a logged error’s message and stack', () => {
    const { logger, lines } = appLogger();
    logger.error({ err: new Error(`fetch ${url} failed`) }, 'unexpected error');
    const err = lines[0].err as { message: string; stack: string; type: string };
    expect(err.type).toBe('Error');
    expect(err.message).toBe(
      'fetch https://gw.example/api/v3/predictions/t1/events?token=[redacted] failed',
    );
    expect(err.stack).toContain('token=[redacted] failed');
    expect(JSON.stringify(lines)).not.toContain('ev1.secret');
  });

  it('never writes an Authorization or Cookie header', () => {
    const { logger, lines } = appLogger();
    logger.info({ req: { headers: { authorization: 'Bearer gh_secret', cookie: 'a=b' } } }, 'r');
    expect(JSON.stringify(lines)).not.toMatch(/gh_secret|a=b/);
  });
});
