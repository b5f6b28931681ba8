import type { FastifyInstance } from 'fastify';
import { AppErrorCode, AppException } from '@genhub/errors';
import { isStorableText, unstorableTextMessage } from './unstorable-text.util';

/**
 * Path parameters and query values are decoded text too: a `%00` (NUL) or a
 * percent-encoded lone surrogate is refused as a 400 naming the parameter,
 * before a handler can store or look it up.
 */
export function installStorableUrlCheck(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    // Only a percent sign can encode what the HTTP parser lets through as text.
    if (!request.url.includes('%')) return done();
    const field =
      firstUnstorable(request.params as Record<string, unknown>) ??
      firstUnstorable(request.query as Record<string, unknown>);
    if (field === undefined) return done();
    done(
      new AppException(AppErrorCode.InvalidRequest, {
        message: unstorableTextMessage(field),
        fields: [field],
        param: field,
      }),
    );
  });
}

function firstUnstorable(values: Record<string, unknown> | undefined): string | undefined {
  for (const [name, value] of Object.entries(values ?? {})) {
    if (!isStorableText(name)) return name;
    for (const item of [value].flat())
      if (typeof item === 'string' && !isStorableText(item)) return name;
  }
  return undefined;
}
