import type { DataSource } from 'typeorm';
import { preparedQuery } from './prepared-query.util';

/** PostgreSQL settings for one transaction (SET LOCAL), by name. */
export type LocalSettings = Readonly<Record<string, string>>;

/** What the planner may not use in an index walk: a scan of the whole table or a bitmap of it. */
const INDEX_WALK: LocalSettings = { enable_seqscan: 'off', enable_bitmapscan: 'off' };

/**
 * Runs one prepared statement (`preparedQuery`) planned to walk indexes:
 * sequential and bitmap scans are off for its transaction only (SET LOCAL,
 * so it holds behind a transaction pooler too), with `settings` on top.
 * Decision 0144.
 *
 * For prepared statements over a table that starts empty and keeps growing
 * (a queue's head, a batch joined on its key): a connection keeps the plan it
 * made for its first executions, and one made while the table was small
 * scans all of it, on every later call too. A bitmap scan never marks the
 * index entries of dead rows (an ordered index walk does, and skips them
 * after), so without VACUUM it visits every row the index ever held.
 *
 * The transaction's four statements (begin, the settings, the statement,
 * commit) are written to the connection at once (the pool pipelines them):
 * one round trip, as for the statement alone. When one fails, the commit
 * rolls back, and the first error is thrown.
 */
export async function inIndexWalk<T>(
  dataSource: DataSource,
  text: string,
  params: unknown[],
  settings: LocalSettings = {},
): Promise<T> {
  const all = Object.entries({ ...INDEX_WALK, ...settings });
  const set = `SELECT ${all.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`;
  const runner = dataSource.createQueryRunner();
  try {
    // Queued in this order on the runner's one connection.
    const [begin, setting, statement, commit] = await Promise.allSettled([
      runner.query('BEGIN'),
      preparedQuery(runner.manager, set, all.flat()),
      preparedQuery<T>(runner.manager, text, params),
      runner.query('COMMIT'),
    ]);
    for (const step of [begin, setting, statement, commit])
      if (step.status === 'rejected') throw step.reason;
    return (statement as PromiseFulfilledResult<T>).value;
  } finally {
    await runner.release();
  }
}
