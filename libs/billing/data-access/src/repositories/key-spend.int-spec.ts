import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { spendPeriodStart } from '../util/spend-period.util';
import { KeySpendRepository } from './key-spend.repository';
import { LedgerAuditRepository } from './ledger-audit.repository';
import { LedgerRepository } from './ledger.repository';
import { CHAT_CATEGORY, type ReserveInput } from './ledger.types';

describe('Key spend limits in the ledger (PostgreSQL)', () => {
  let dataSource: DataSource;
  let ledger: LedgerRepository;
  let keySpends: KeySpendRepository;
  const now = new Date();
  const today = spendPeriodStart('day', now);

  beforeAll(async () => {
    dataSource = new DataSource(
      dataSourceOptions({ url: process.env.DATABASE_URL as string, poolSize: 20 }),
    );
    await dataSource.initialize();
    ledger = new LedgerRepository(dataSource);
    keySpends = new KeySpendRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  async function account(initialUnits = 1_000_000_000): Promise<string> {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits });
    return accountId;
  }

  const limited = (
    accountId: string,
    keyId: string,
    amountUnits: number,
    limitUnits: number,
    periodStart = today,
  ): ReserveInput => ({
    accountId,
    taskId: randomUUID(),
    amountUnits,
    model: 'local/simulator/test',
    category: 'test',
    apiKeyId: keyId,
    keyLimit: { limitUnits, periodStart },
  });

  async function used(keyId: string, periodStart = today): Promise<number | undefined> {
    const rows: { used_units: number }[] = await dataSource.query(
      `SELECT used_units FROM billing.key_spend WHERE key_id = $1 AND period_start = $2`,
      [keyId, periodStart],
    );
    return rows[0]?.used_units;
  }

  async function reservationsOf(keyId: string): Promise<{ state: string; n: number }[]> {
    return dataSource.query(
      `SELECT state, count(*)::int AS n FROM billing.reservations WHERE api_key_id = $1
        GROUP BY state ORDER BY state`,
      [keyId],
    );
  }

  it('200 parallel reservations against a limit covering 37: exactly 37 reserved, the rest refused with nothing written', async () => {
    const [accountId, keyId] = [await account(), randomUUID()];
    const price = 1000;
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        ledger.reserve(dataSource.manager, limited(accountId, keyId, price, 37 * price + 999)),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(37);
    for (const refusal of results.filter((r) => !r.ok))
      expect(refusal).toMatchObject({ reason: 'key_limit', limitUnits: 37 * price + 999 });
    expect(await used(keyId)).toBe(37 * price);
    expect(await reservationsOf(keyId)).toEqual([{ state: 'open', n: 37 }]);
    expect(await ledger.balanceOf(accountId)).toMatchObject({ reservedUnits: 37 * price });
  });

  it('the balance is checked first: a refusal by balance says so and bumps no counter', async () => {
    const [accountId, keyId] = [await account(500), randomUUID()];
    expect(
      await ledger.reserve(dataSource.manager, limited(accountId, keyId, 1000, 10_000)),
    ).toEqual({
      ok: false,
      reason: 'balance',
      availableUnits: 500,
      currency: 'USD',
    });
    expect(await used(keyId)).toBeUndefined();
  });

  it('a price above the limit on the period’s first reservation is refused, no row written', async () => {
    const [accountId, keyId] = [await account(), randomUUID()];
    const refusal = await ledger.reserve(dataSource.manager, limited(accountId, keyId, 2000, 1000));
    expect(refusal).toEqual({
      ok: false,
      reason: 'key_limit',
      spentUnits: 0,
      limitUnits: 1000,
      currency: 'USD',
    });
    expect(await used(keyId)).toBeUndefined();
    expect(await reservationsOf(keyId)).toEqual([]);
  });

  it('a release gives the room back, a capture keeps its charge and returns the rest', async () => {
    const [accountId, keyId] = [await account(), randomUUID()];
    const a = limited(accountId, keyId, 1000, 2000);
    const b = limited(accountId, keyId, 1000, 2000);
    expect(await ledger.reserve(dataSource.manager, a)).toEqual({ ok: true });
    expect(await ledger.reserve(dataSource.manager, b)).toEqual({ ok: true });
    expect(
      (await ledger.reserve(dataSource.manager, limited(accountId, keyId, 1000, 2000))).ok,
    ).toBe(false);

    await ledger.release({ taskId: a.taskId, accountId });
    expect(await used(keyId)).toBe(1000);
    expect(await ledger.reserve(dataSource.manager, limited(accountId, keyId, 1000, 2000))).toEqual(
      { ok: true },
    );

    const captured = await ledger.captureAmount({ taskId: b.taskId, accountId, amountUnits: 400 });
    expect(captured).toMatchObject({ outcome: 'captured', record: { amountUnits: -400 } });
    expect(await used(keyId)).toBe(1400);
    const [record] = await dataSource.query(
      `SELECT api_key_id FROM billing.records WHERE task_id = $1`,
      [b.taskId],
    );
    expect(record.api_key_id).toBe(keyId);
    expect(await keySpends.spentOf([{ id: keyId, accountId, period: 'day' }], now)).toEqual(
      new Map([[keyId, 1400]]),
    );
  });

  it('a stale chat reservation released by the sweep gives its room back', async () => {
    const [accountId, keyId] = [await account(), randomUUID()];
    const chat = { ...limited(accountId, keyId, 3000, 5000), category: CHAT_CATEGORY };
    expect(await ledger.reserve(dataSource.manager, chat)).toEqual({ ok: true });
    await dataSource.query(
      `UPDATE billing.reservations SET created_at = now() - interval '1 hour' WHERE task_id = $1`,
      [chat.taskId],
    );
    await ledger.releaseStale({ category: CHAT_CATEGORY, olderThanMs: 60_000 });
    expect(await used(keyId)).toBe(0);
  });

  it('a new day starts a new counter: yesterday’s spend no longer counts', async () => {
    const [accountId, keyId] = [await account(), randomUUID()];
    expect(
      (await ledger.reserve(dataSource.manager, limited(accountId, keyId, 1000, 1000))).ok,
    ).toBe(true);
    expect(
      (await ledger.reserve(dataSource.manager, limited(accountId, keyId, 1000, 1000))).ok,
    ).toBe(false);
    await dataSource.query(
      `UPDATE billing.key_spend SET period_start = period_start - interval '1 day' WHERE key_id = $1`,
      [keyId],
    );
    expect(
      (await ledger.reserve(dataSource.manager, limited(accountId, keyId, 1000, 1000))).ok,
    ).toBe(true);
  });

  it('spent without a limit: every charge and open reservation of the key since issue', async () => {
    const [accountId, keyId] = [await account(), randomUUID()];
    const plain = (amountUnits: number): ReserveInput => ({
      accountId,
      taskId: randomUUID(),
      amountUnits,
      model: 'm',
      category: 'test',
      apiKeyId: keyId,
    });
    const [a, b, c] = [plain(1000), plain(2000), plain(4000)];
    for (const r of [a, b, c])
      expect(await ledger.reserve(dataSource.manager, r)).toEqual({ ok: true });
    await ledger.capture({ taskId: a.taskId, accountId });
    await ledger.release({ taskId: b.taskId, accountId });
    expect(await keySpends.spentOf([{ id: keyId, accountId, period: null }], now)).toEqual(
      new Map([[keyId, 5000]]),
    );
    // No counter was written for a key without a limit.
    expect(await used(keyId)).toBeUndefined();
  });

  it('a limit set later starts from what the key already spent in the period, and its reservations give room back', async () => {
    const [accountId, keyId] = [await account(), randomUUID()];
    const plain = (amountUnits: number): ReserveInput => ({
      accountId,
      taskId: randomUUID(),
      amountUnits,
      model: 'm',
      category: 'test',
      apiKeyId: keyId,
    });
    const [a, b] = [plain(1000), plain(2000)];
    for (const r of [a, b])
      expect(await ledger.reserve(dataSource.manager, r)).toEqual({ ok: true });
    await ledger.captureAmount({ taskId: a.taskId, accountId, amountUnits: 600 });

    await keySpends.resetPeriod({ id: keyId, accountId, period: 'day' }, now);
    expect(await used(keyId)).toBe(2600);
    // The limit is 3000: 400 left.
    expect(
      (await ledger.reserve(dataSource.manager, limited(accountId, keyId, 500, 3000))).ok,
    ).toBe(false);
    await ledger.release({ taskId: b.taskId, accountId });
    expect(await used(keyId)).toBe(600);
    expect(
      (await ledger.reserve(dataSource.manager, limited(accountId, keyId, 500, 3000))).ok,
    ).toBe(true);
    // Reset again (say the period changed): the same sums, and other periods' counters dropped.
    await dataSource.query(`INSERT INTO billing.key_spend VALUES ($1, $2, 7)`, [
      keyId,
      new Date(today.getTime() - 86_400_000),
    ]);
    await keySpends.resetPeriod({ id: keyId, accountId, period: 'day' }, now);
    expect(await used(keyId)).toBe(1100);
    const [{ n }] = await dataSource.query(
      `SELECT count(*)::int AS n FROM billing.key_spend WHERE key_id = $1`,
      [keyId],
    );
    expect(n).toBe(1);
  });

  it('the audit checks each key counter against its open reservations and charges', async () => {
    const [accountId, keyId] = [await account(), randomUUID()];
    const [a, b, c] = [1, 2, 3].map(() => limited(accountId, keyId, 1000, 10_000));
    for (const r of [a, b, c])
      expect(await ledger.reserve(dataSource.manager, r)).toEqual({ ok: true });
    await ledger.captureAmount({ taskId: a.taskId, accountId, amountUnits: 250 });
    await ledger.release({ taskId: b.taskId, accountId });
    const facts = async () =>
      (await new LedgerAuditRepository(dataSource).accountFacts({ horizonMs: 3_600_000 })).find(
        (f) => f.accountId === accountId,
      );
    expect(await used(keyId)).toBe(1250);
    expect(await facts()).toMatchObject({ keySpendRows: 1, keySpendMismatches: 0 });
    await dataSource.query(
      `UPDATE billing.key_spend SET used_units = used_units + 1 WHERE key_id = $1`,
      [keyId],
    );
    expect(await facts()).toMatchObject({ keySpendRows: 1, keySpendMismatches: 1 });
  });
});
