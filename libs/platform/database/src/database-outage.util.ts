/** Socket-level failures: the server is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that mean "the server cannot serve you now": connection exceptions
 * (class 08), shutdown or start-up in progress (57P01–57P03), no free connection (53300).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** What node-postgres and its pool throw when no connection can be had or one dies mid-query. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
];

/**
 * True when a database call failed because PostgreSQL is unavailable (as
 * opposed to a bug or a constraint), so callers can answer a retryable 503.
 * TypeORM's QueryFailedError carries the driver's error as `driverError`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 3; depth++) {
    const code = typeof e['code'] === 'string' ? e['code'] : '';
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
    const message = typeof e['message'] === 'string' ? e['message'] : '';
    if (DRIVER_MESSAGES.some((m) => message.startsWith(m))) return true;
    e = (e['driverError'] ?? e['cause']) as Record<string, unknown> | undefined;
  }
  return false;
}
