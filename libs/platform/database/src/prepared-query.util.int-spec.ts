import { DataSource, QueryRunner } from 'typeorm';
import { dataSourceOptions } from './data-source.factory';
import { preparedQuery } from './prepared-query.util';

describe('preparedQuery (PostgreSQL)', () => {
  let ds: DataSource;
  let runner: QueryRunner;

  beforeAll(async () => {
    ds = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await ds.initialize();
    // One connection, so its prepared statements can be listed.
    runner = ds.createQueryRunner();
    await runner.connect();
  });
  afterAll(async () => {
    await runner.release();
    await ds.destroy();
  });

  const prepared = async () =>
    (await runner.query(`SELECT name, statement FROM pg_prepared_statements ORDER BY name`)) as {
      name: string;
      statement: string;
    }[];

  it('prepares a statement once per connection and runs it with each call’s parameters', async () => {
    const text = 'SELECT $1::int + 1 AS n';
    expect(await preparedQuery(runner.manager, text, [1])).toEqual([{ n: 2 }]);
    expect(await preparedQuery(runner.manager, text, [41])).toEqual([{ n: 42 }]);
    const statements = (await prepared()).filter((s) => s.statement === text);
    expect(statements).toHaveLength(1);
    expect(statements[0].name).toMatch(/^genhub_[\w-]{27}$/);
  });

  it('gives a different text its own statement, and answers as manager.query does', async () => {
    await runner.query(`CREATE TEMP TABLE prepared_probe (id int PRIMARY KEY, v int)`);
    await runner.query(`INSERT INTO prepared_probe VALUES (1, 10), (2, 20)`);
    const update = 'UPDATE prepared_probe SET v = v + $2 WHERE id = $1 RETURNING id, v';
    const viaPrepared = await preparedQuery(runner.manager, update, [1, 5]);
    const viaQuery = await runner.manager.query(update, [2, 5]);
    // An UPDATE answers [rows, affected] either way.
    expect(viaPrepared).toEqual([[{ id: 1, v: 15 }], 1]);
    expect(viaQuery).toEqual([[{ id: 2, v: 25 }], 1]);
    const names = (await prepared()).map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect((await prepared()).some((s) => s.statement === update)).toBe(true);
  });

  it('reports a failing statement as a QueryFailedError carrying the driver’s code', async () => {
    await expect(
      preparedQuery(runner.manager, 'SELECT 1 / $1::int AS n', [0]),
    ).rejects.toMatchObject({ name: 'QueryFailedError', driverError: { code: '22012' } });
  });
});
