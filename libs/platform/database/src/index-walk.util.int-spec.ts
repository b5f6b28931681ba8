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
  });
  afterAll(() => ds.destroy());

  const settings = async (run: (sql: string) => Promise<unknown>) =>
    run(
      `SELECT current_setting('enable_seqscan') AS seqscan,
              current_setting('enable_bitmapscan') AS bitmapscan,
              current_setting('synchronous_commit') AS commit`,
    );

  it('sets the index walk and the extra settings for its transaction only', async () => {
    const inside = await inIndexWalk(ds, (manager) => settings((sql) => manager.query(sql)), {
      synchronous_commit: 'off',
    });
    expect(inside).toEqual([{ seqscan: 'off', bitmapscan: 'off', commit: 'off' }]);
    expect(await settings((sql) => ds.query(sql))).toEqual([
      { seqscan: 'on', bitmapscan: 'on', commit: 'on' },
    ]);
  });

  it('keeps nothing of work that fails, and lets the error through', async () => {
    await ds.query(`CREATE TEMP TABLE walked (n int)`);
    await expect(
      inIndexWalk(ds, async (manager) => {
        await manager.query(`INSERT INTO walked VALUES (1)`);
        await manager.query(`SELECT 1 / 0`);
      }),
    ).rejects.toThrow('division by zero');
    expect(await ds.query(`SELECT count(*)::int AS n FROM walked`)).toEqual([{ n: 0 }]);
  });
});
