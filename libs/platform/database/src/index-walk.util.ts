import type { Writable } from 'node:stream';
import type { PoolClient, QueryResult, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { nameFor } from './prepared-query.util';

/** PostgreSQL settings for one transaction (SET LOCAL), by name. */
export type LocalSettings = Readonly<Record<string, string>>;

/** What the planner may not use in an index walk: a scan of the whole table or a bitmap of it. */
const INDEX_WALK: LocalSettings = { enable_seqscan: 'off', enable_bitmapscan: 'off' };

/**
 * Runs one statement, prepared as `preparedQuery` prepares it, planned to walk
 * indexes: sequential and bitmap scans are off for its transaction only (SET
 * LOCAL, so it holds behind a transaction pooler too), with `settings` on top;
 * answers its rows. Decision 0144.
 *
 * For prepared statements over a table that starts empty and keeps growing
 * (a queue's head, a batch joined on its key): a connection keeps the plan it
 * made for its first executions, and one made while the table was small
 * scans all of it, on every later call too. A bitmap scan never marks the
 * index entries of dead rows (an ordered index walk does, and skips them
 * after), so without VACUUM it visits every row the index ever held.
 *
 * The transaction's four statements (begin, the settings, the statement,
 * commit) leave in one write (the pool pipelines them, and the socket is
 * corked while they are queued): one round trip and one wake-up of the
 * server, as for the statement alone. When one fails, the commit rolls back,
 * and the first error is thrown.
 */
export async function inIndexWalk<Row extends QueryResultRow>(
  dataSource: DataSource,
  text: string,
  params: unknown[],
  settings: LocalSettings = {},
): Promise<Row[]> {
  const all = Object.entries({ ...INDEX_WALK, ...settings });
  const set = `SELECT ${all.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`;
  const runner = dataSource.createQueryRunner();
  try {
    const client = (await runner.connect()) as PoolClient;
    const socket = socketOf(client);
    socket.cork();
    let steps: Promise<QueryResult>[];
    try {
      steps = [
        client.query('BEGIN'),
        client.query({ name: nameFor(set), text: set, values: all.flat() }),
        client.query<Row>({ name: nameFor(text), text, values: params }),
        client.query('COMMIT'),
      ];
    } finally {
      socket.uncork();
    }
    const [begin, setting, statement, commit] = await Promise.allSettled(steps);
    for (const step of [begin, setting, statement, commit])
      if (step.status === 'rejected') throw step.reason;
    return (statement as PromiseFulfilledResult<QueryResult<Row>>).value.rows;
  } finally {
    await runner.release();
  }
}

/**
 * The client's socket. node-postgres keeps it as `connection.stream` (not in
 * its typings); a client without one writes each statement as it comes.
 */
function socketOf(client: PoolClient): Pick<Writable, 'cork' | 'uncork'> {
  const stream = (client as unknown as { connection?: { stream?: Partial<Writable> } }).connection
    ?.stream;
  if (typeof stream?.cork === 'function' && typeof stream.uncork === 'function')
    return stream as Writable;
  return { cork: () => undefined, uncork: () => undefined };
}
