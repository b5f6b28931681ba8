import { RequestMethod } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import { logContextMixin } from './log-context';

/** The caller's `x-request-id` when it is sane, else a new UUID. Fastify assigns it; every log line carries it. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * Structured JSON logs, secrets redacted. Lines written while serving a request
 * carry `request_id`; lines written while running a job carry `task_id` and
 * `request_id` (see withLogContext).
 */
export function loggerOptions(service: string, level: string): Params {
  return {
    // Probes and scrapes are not worth a log line each.
    exclude: ['health', 'ready', 'metrics'].map((path) => ({ method: RequestMethod.GET, path })),
    pinoHttp: {
      level,
      base: { service },
      messageKey: 'msg',
      genReqId: requestId,
      mixin: logContextMixin,
      customProps: (req) => ({ request_id: req.id }),
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
      },
    },
  };
}
