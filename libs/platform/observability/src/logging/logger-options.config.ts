import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import { logContextMixin } from './log-context.util';

/** The caller's `x-request-id` when it is sane, else a new UUID. Fastify assigns it; every log line carries it. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * Structured JSON logs, secrets redacted. nestjs-pino provides the app's
 * logger; its per-request middleware is off (`forRoutes: []`): the request
 * line comes from RequestLog. Lines written while running a job carry
 * `task_id` and `request_id` (see withLogContext).
 */
export function loggerOptions(service: string, level: string): Params {
  return {
    forRoutes: [],
    pinoHttp: {
      level,
      base: { service },
      messageKey: 'msg',
      mixin: logContextMixin,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
  };
}
