import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { LoggerOptions } from 'pino';
import { logContextMixin } from './log-context.util';
import { withoutUrlSecrets } from './request-log.service';

/** The caller's `x-request-id` when it is sane, else a new UUID. Fastify assigns it; every log line carries it. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * A serialized error (pino's `err`) with URL credentials redacted in every
 * text field: an error's message or stack may quote a URL it was given.
 */
export function redactedError(error: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...error };
  for (const [name, value] of Object.entries(out))
    if (typeof value === 'string') out[name] = withoutUrlSecrets(value);
  return out;
}

/**
 * pino's log-method hook: the text arguments of a line (its message and
 * format arguments) with URL credentials redacted. A line's object fields are
 * its writer's business: a field holding a URL is passed through
 * withoutUrlSecrets where it is written (the request line, the error filter).
 */
const redactingHooks: LoggerOptions['hooks'] = {
  logMethod(args, method) {
    for (let i = 0; i < args.length; i++) {
      const arg: unknown = args[i];
      if (typeof arg === 'string') (args as unknown[])[i] = withoutUrlSecrets(arg);
    }
    return method.apply(this, args);
  },
};

/**
 * Structured JSON logs, secrets redacted: the Authorization and Cookie
 * headers, and credentials in URLs (query `token`, `ticket`, keys, presigned
 * signatures) in message texts and errors (decision 0128). nestjs-pino
 * provides the app's logger; its per-request middleware is off
 * (`forRoutes: []`): the request line comes from RequestLog. Lines written
 * while running a job carry `task_id` and `request_id` (see withLogContext).
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
      serializers: { err: redactedError },
      hooks: redactingHooks,
    },
  };
}
