import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** Statement names by text: a statement built from parts gets one name per distinct text. */
const names = new Map<string, string>();
const MAX_NAMES = 1000;

/** The name a statement is prepared under on every connection (for this lib's own callers of pg). */
export function nameFor(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `genhub_${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * `manager.query(text, params)` as a named prepared statement: each
 * connection parses it once, and PostgreSQL may keep one generic plan,
 * instead of parsing and planning it on every call (for the hot CTEs that
 * was about as much PostgreSQL time as running them; decision 0090).
 *
 * For hot statements only, and only with an explicit result column list
 * (no `SELECT *` / `RETURNING *` as the final result): a prepared statement
 * whose result columns change under it (a migration adding a column) fails
 * with "cached plan must not change result type".
 */
export function preparedQuery<T>(
  manager: EntityManager,
  text: string,
  params: unknown[],
): Promise<T> {
  // TypeORM hands the query to node-postgres unchanged, and node-postgres
  // accepts a QueryConfig naming the statement in place of the text.
  return manager.query({ name: nameFor(text), text } as unknown as string, params);
}
