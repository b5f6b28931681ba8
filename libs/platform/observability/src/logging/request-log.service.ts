import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { routeFamily } from '../metrics/route-family.util';

/**
 * Query parameters that carry a credential: ours (event-stream `token`,
 * upload `ticket`), the usual key and token names, and presigned-URL
 * signatures (S3's `X-Amz-*`, `Signature`, `sig`). Matched in a URL, in a text
 * that quotes one, and percent-encoded inside another URL's query (a webhook
 * URL passed as `?webhook=`): the value runs to the next `&` or `#`.
 */
const URL_SECRET =
  /((?:[?&]|%3F|%26)(?:token|ticket|key|api_?key|access_token|secret|password|signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token)(?:=|%3D))[^&#\s"'<>]*/gi;

/**
 * A URL (or any text quoting one) as logged: credentials in query parameters
 * are replaced by `[redacted]` (decision 0128). Every log line that writes a
 * URL passes it through here; the logger does it for message strings and errors.
 */
export function withoutUrlSecrets(url: string): string {
  return url.includes('=') || url.includes('%3D') || url.includes('%3d')
    ? url.replace(URL_SECRET, '$1[redacted]')
    : url;
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
