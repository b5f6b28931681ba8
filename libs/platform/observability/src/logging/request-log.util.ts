import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { routeFamily } from '../metrics/route-family.util';

/** Query parameters that carry a signed credential (event-stream tokens, upload tickets). */
const URL_SECRET = /([?&](?:token|ticket)=)[^&#]*/gi;

/** The URL as logged: signed credentials in its query are replaced by `[redacted]`. */
export function withoutUrlSecrets(url: string): string {
  return url.includes('=') ? url.replace(URL_SECRET, '$1[redacted]') : url;
}

/**
 * One line per answered request (`request completed`, with `request_id`,
 * method, URL, status and time), written from Fastify's onResponse hook.
 * It replaces pino-http's per-request middleware, which built a child logger
 * and an AsyncLocalStorage scope for every request, about a fifth of the
 * gateway's CPU under polling load (docs/decisions/0096). Probes and scrapes
 * (the `probe` route family) get no line. Lines written while serving a
 * request name it explicitly (`request_id`).
 */
export class RequestLog {
  private resolved?: Logger;

  /** `logger` is resolved at the first request: nestjs-pino creates its root logger during init. */
  constructor(private readonly logger: () => Logger) {}

  /**
   * The root logger without pino-http's `req`/`res` serializers: they read
   * Node's request and response objects (`res.headersSent`, …) and would turn
   * the plain fields written here into `statusCode: null`.
   */
  private lines(): Logger {
    return (this.resolved ??= this.logger().child({}, { serializers: { req: same, res: same } }));
  }

  install(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      this.write(request, reply);
      done();
    });
  }

  write(request: FastifyRequest, reply: FastifyReply): void {
    const logger = this.lines();
    const failed = reply.statusCode >= 500;
    const level = failed ? 'error' : 'info';
    if (!logger.isLevelEnabled(level) || routeFamily(request.routeOptions.url) === 'probe') return;
    logger[level](
      {
        request_id: request.id,
        req: { method: request.method, url: withoutUrlSecrets(request.url) },
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      failed ? 'request failed' : 'request completed',
    );
  }
}

const same = <T>(value: T): T => value;
