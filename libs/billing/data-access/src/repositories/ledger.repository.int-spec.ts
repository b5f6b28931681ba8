import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { BILLING_ENTITIES } from '../entities';
import { LedgerRepository } from './ledger.repository';

describe('LedgerRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let ledger: LedgerRepository;

  beforeAll(async () => {
    dataSource = new DataSource(
      dataSourceOptions({
        url: process.env.DATABASE_URL as string,
        entities: BILLING_ENTITIES,
        poolSize: 20,
      }),
    );
    await dataSource.initialize();
    ledger = new LedgerRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  const reserveInput = (accountId: string, amountUnits = 1000) => ({
    accountId,
    taskId: randomUUID(),
    amountUnits,
    model: 'local/simulator/test',
    category: 'test',
  });

  it('records an opening balance as the first top-up', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'CNY', initialUnits: 5_000_000 });
    expect(await ledger.balanceOf(accountId)).toEqual({
      accountId,
      currency: 'CNY',
      balanceUnits: 5_000_000,
      reservedUnits: 0,
    });
    const record = await ledger.topUp({ accountId, amountUnits: 1_000_000 });
    expect(record).toMatchObject({
      type: 'top-up',
      seq: 2,
      typeSeq: 2,
      amountUnits: 1_000_000,
      balanceAfterUnits: 6_000_000,
    });
  });

  it('writes nothing for a zero opening balance and refuses what it cannot cover', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 0 });
    const result = await dataSource.transaction((m) => ledger.reserve(m, reserveInput(accountId)));
    expect(result).toEqual({ ok: false, availableUnits: 0, currency: 'USD' });
    const [{ count }] = await dataSource.query(
      `SELECT count(*)::int AS count FROM billing.reservations WHERE account_id = $1`,
      [accountId],
    );
    expect(count).toBe(0);
  });

  it('never reserves more than the balance under parallel submits', async () => {
    const accountId = randomUUID();
    const K = 7;
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: K * 1000 });
    const results = await Promise.all(
      Array.from({ length: 5 * K }, () =>
        dataSource.transaction((m) => ledger.reserve(m, reserveInput(accountId))),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(K);
    expect(await ledger.balanceOf(accountId)).toMatchObject({
      balanceUnits: K * 1000,
      reservedUnits: K * 1000,
    });
  });
});
