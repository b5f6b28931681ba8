import type { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source.factory';
import { inIndexWalk } from './index-walk.util';

describe('inIndexWalk (PostgreSQL)', () => {
  let ds: DataSource;

  beforeAll(async () => {
    // One connection: what the walk set must not stay on it afterwards.
    ds = new DataSource(
      dataSourceOptions({ url: process.env.DATABASE_URL as string, poolSize: 1 }),
    );
    await ds.initialize();
    await ds.query(`CREATE TEMP TABLE walked (n int PRIMARY KEY)`);
  });
  afterAll(() => ds.destroy());

  const SETTINGS = `SELECT current_setting('enable_seqscan') AS seqscan,
                           current_setting('enable_bitmapscan') AS bitmapscan,
                           current_setting('synchronous_commit') AS commit,
                           txid_current_if_assigned() IS NULL AS fresh`;

  it('sets the index walk and the extra settings for its transaction only', async () => {
    expect(await inIndexWalk(ds, SETTINGS, [], { synchronous_commit: 'off' })).toEqual([
      { seqscan: 'off', bitmapscan: 'off', commit: 'off', fresh: true },
    ]);
    expect(await ds.query(SETTINGS)).toEqual([
      { seqscan: 'on', bitmapscan: 'on', commit: 'on', fresh: true },
    ]);
  });

  it('writes its four statements to the server in one write', async () => {
    // The pool's one connection, its socket's writes counted.
    const runner = ds.createQueryRunner();
    const client = (await runner.connect()) as { connection: { stream: Writable } };
    await runner.release();
    const socket = client.connection.stream as Writable & {
      _write: Writable['_write'];
      _writev?: Writable['_writev'];
    };
    const writes = { count: 0 };
    const write = socket._write;
    const writev = socket._writev;
    socket._write = function (...args) {
      writes.count++;
      return write.apply(this, args);
    };
    socket._writev = function (...args) {
      writes.count++;
      return writev!.apply(this, args);
    };
    try {
      await inIndexWalk(ds, SETTINGS, []);
      expect(writes.count).toBe(1);
      await ds.query(SETTINGS);
      expect(writes.count).toBe(2);
    } finally {
      socket._write = write;
      socket._writev = writev;
    }
  });

  it('commits what the statement wrote, and answers its rows', async () => {
    expect(
      await inIndexWalk(ds, `INSERT INTO walked VALUES ($1), ($2) RETURNING n`, [1, 2]),
    ).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await ds.query(`SELECT n FROM walked ORDER BY n`)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('keeps nothing of a statement that fails, lets its error through, and leaves the connection clean', async () => {
    await expect(
      inIndexWalk(
        ds,
        `INSERT INTO walked SELECT 10 + n / (n - 3) FROM generate_series(3, 4) n`,
        [],
      ),
    ).rejects.toThrow('division by zero');
    await expect(inIndexWalk(ds, `INSERT INTO walked VALUES ($1)`, [1])).rejects.toThrow(
      'duplicate key',
    );
    // The same one connection: no transaction left open on it, nothing kept.
    expect(
      await ds.query(`SELECT count(*)::int AS n, now() = statement_timestamp() AS own FROM walked`),
    ).toEqual([{ n: 2, own: true }]);
    expect(await inIndexWalk(ds, `SELECT count(*)::int AS n FROM walked`, [])).toEqual([{ n: 2 }]);
  });
});
