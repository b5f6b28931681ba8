import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from './prepared-query.util';

/** PostgreSQL settings for one transaction (SET LOCAL), by name. */
export type LocalSettings = Readonly<Record<string, string>>;

/** What the planner may not use in an index walk: a scan of the whole table or a bitmap of it. */
const INDEX_WALK: LocalSettings = { enable_seqscan: 'off', enable_bitmapscan: 'off' };

/**
 * Runs `work` in a transaction whose statements are planned to walk indexes:
 * sequential and bitmap scans are off for this transaction only (SET LOCAL,
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
 * The settings go to the connection with the first statement of `work`
 * (pipelined): one round trip more than the statement alone, for the commit.
 */
export async function inIndexWalk<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  settings: LocalSettings = {},
): Promise<T> {
  const all = Object.entries({ ...INDEX_WALK, ...settings });
  const text = `SELECT ${all.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`;
  return dataSource.transaction(async (manager) => {
    const [, result] = await Promise.all([preparedQuery(manager, text, all.flat()), work(manager)]);
    return result;
  });
}
