import { HttpException } from '@nestjs/common';
import { isDatabaseUnavailable } from '@genhub/database';
import { AppErrorCode, AppException } from '@genhub/errors';
import { isRedisUnavailable } from '@genhub/queue';

/** A Fastify/Nest error: `code` (FST_ERR_…) and `statusCode`. */
interface TransportError {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

/**
 * Anything thrown while serving a request → a catalogue error; PostgreSQL
 * or Redis being unavailable → 503. Returns undefined for an unexpected failure (a
 * bug): it becomes a logged 500 `Server error`, never its own text.
 */
export function toAppException(error: unknown, bodyLimit: number): AppException | undefined {
  if (error instanceof AppException) return error;
  // PostgreSQL (or, for sync=true, Redis) down: a retryable 503, not a 500 (decision 0022).
  if (isDatabaseUnavailable(error) || isRedisUnavailable(error))
    return new AppException(AppErrorCode.ServiceUnavailable);
  const transport = (error ?? {}) as TransportError;
  const code = typeof transport.code === 'string' ? transport.code : '';
  // Nest hands Fastify's errors over as HttpException(message, statusCode), a
  // SyntaxError as BadRequestException; raw ones keep their FST_ code.
  const status =
    error instanceof HttpException
      ? error.getStatus()
      : typeof transport.statusCode === 'number' && code.startsWith('FST_')
        ? transport.statusCode
        : undefined;
  if (status === undefined || status >= 500) return undefined;
  switch (status) {
    case 404:
    case 405:
      return new AppException(AppErrorCode.NotFound);
    case 413:
      return new AppException(AppErrorCode.PayloadTooLarge, {
        message: `Request body too large: the limit is ${bodyLimit} bytes`,
      });
    case 415:
      return new AppException(AppErrorCode.InvalidRequest, {
        message: 'Unsupported Content-Type: expected application/json',
      });
    case 400:
      // Framework 400s (content length, URL encoding, a built-in pipe) say what is wrong.
      return new AppException(AppErrorCode.InvalidRequest, {
        message: typeof transport.message === 'string' ? transport.message : undefined,
      });
  }
  // Any other framework 4xx: a 400 with the generic text.
  return new AppException(AppErrorCode.InvalidRequest);
}
