import Fastify from 'fastify';
import { pinoHttp } from 'pino-http';
import { Writable } from 'node:stream';
import { loggerOptions, requestId } from './logger-options.config';
import { RequestLog } from './request-log.util';

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
});
