/**
 * True when a Redis call failed because Redis is unreachable: ioredis gave up
 * retrying the command (MaxRetriesPerRequestError), or its connection is closed.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'MaxRetriesPerRequestError') return true;
  return typeof message === 'string' && message.startsWith('Connection is closed');
}
