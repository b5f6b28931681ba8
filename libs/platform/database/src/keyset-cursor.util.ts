/**
 * A keyset page's position: the last row's exact `created_at` (PostgreSQL's
 * microseconds, UTC, as the query gave it) and its id. Newest-first lists
 * (the task history, the admin's accounts) continue after it (decision 0113).
 */
export interface KeysetPosition {
  createdAt: string;
  id: string;
}

const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The position as an opaque, URL-safe cursor. */
export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`).toString('base64url');
}

/** The position a cursor names; undefined for anything `encodeKeysetCursor` did not make. */
export function decodeKeysetCursor(cursor: string): KeysetPosition | undefined {
  const [createdAt, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !EXACT_TIME.test(createdAt ?? '') || !UUID.test(id ?? ''))
    return undefined;
  return { createdAt, id };
}

/**
 * A keyset page's position in a list ordered by a count, largest first, then
 * by id (the operator's queue by account: waiting tasks, account id).
 */
export interface CountKeysetPosition {
  count: number;
  id: string;
}

/** A count as `encodeCountKeysetCursor` writes it: no sign, no leading zero, a safe integer. */
const COUNT = /^(0|[1-9]\d{0,14})$/;

/** The position as an opaque, URL-safe cursor (`c.` marks the kind: never a time-ordered one). */
export function encodeCountKeysetCursor(position: CountKeysetPosition): string {
  return Buffer.from(`c.${position.count}|${position.id}`).toString('base64url');
}

/** The position a cursor names; undefined for anything `encodeCountKeysetCursor` did not make. */
export function decodeCountKeysetCursor(cursor: string): CountKeysetPosition | undefined {
  const [count, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !count?.startsWith('c.') || !UUID.test(id ?? '')) return undefined;
  const digits = count.slice(2);
  if (!COUNT.test(digits)) return undefined;
  return { count: Number(digits), id: id.toLowerCase() };
}
