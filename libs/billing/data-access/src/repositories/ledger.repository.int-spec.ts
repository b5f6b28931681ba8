import { randomUUID } from 'node:crypto';
import { isUUID } from 'class-validator';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { LedgerRepository } from './ledger.repository';
import { CHAT_CATEGORY } from './ledger.types';

describe('LedgerRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let ledger: LedgerRepository;

  beforeAll(async () => {
    dataSource = new DataSource(
      dataSourceOptions({
        url: process.env.DATABASE_URL as string,
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
    apiKeyId: null,
  });

  it('reads the balances of several accounts at once', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await ledger.openAccount({ accountId: a, currency: 'USD', initialUnits: 2_000_000 });
    await ledger.openAccount({ accountId: b, currency: 'CNY', initialUnits: 0 });
    await ledger.reserve(dataSource.manager, reserveInput(a, 500_000));
    const views = await ledger.balancesOf([a, b, randomUUID()]);
    expect(views.sort((x, y) => (x.accountId === a ? -1 : y.accountId === a ? 1 : 0))).toEqual([
      { accountId: a, currency: 'USD', balanceUnits: 2_000_000, reservedUnits: 500_000 },
      { accountId: b, currency: 'CNY', balanceUnits: 0, reservedUnits: 0 },
    ]);
    for (const view of views) expect(await ledger.balanceOf(view.accountId)).toEqual(view);
    expect(await ledger.balancesOf([])).toEqual([]);
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

  it('gives new records time-ordered ids (UUID version 7: the time in ms first)', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 0 });
    const before = Date.now();
    const record = await ledger.topUp({ accountId, amountUnits: 1_000 });
    const after = Date.now();
    const id = record?.id ?? '';
    expect(isUUID(id, '7')).toBe(true);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });

  it('writes nothing for a zero opening balance and refuses what it cannot cover', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 0 });
    const result = await dataSource.transaction((m) => ledger.reserve(m, reserveInput(accountId)));
    expect(result).toEqual({ ok: false, reason: 'balance', availableUnits: 0, currency: 'USD' });
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

  const reserved = async (accountId: string, amountUnits = 1000) => {
    const input = reserveInput(accountId, amountUnits);
    const result = await dataSource.transaction((m) => ledger.reserve(m, input));
    expect(result).toEqual({ ok: true });
    return input;
  };

  it('captures once: one usage record, balance and rollup follow, a second capture is a no-op', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 10_000 });
    const task = await reserved(accountId, 2500);
    const first = await ledger.capture({ taskId: task.taskId, accountId });
    expect(first).toMatchObject({
      outcome: 'captured',
      record: {
        type: 'usage',
        seq: 2,
        typeSeq: 1,
        amountUnits: -2500,
        balanceAfterUnits: 7500,
        model: 'local/simulator/test',
        category: 'test',
        taskId: task.taskId,
      },
    });
    expect(await ledger.capture({ taskId: task.taskId, accountId })).toEqual({
      outcome: 'unchanged',
    });
    expect(await ledger.release({ taskId: task.taskId, accountId })).toEqual({
      outcome: 'unchanged',
    });
    expect(await ledger.balanceOf(accountId)).toMatchObject({
      balanceUnits: 7500,
      reservedUnits: 0,
    });
    const rollup = await dataSource.query(
      `SELECT category, tasks, cost_units FROM billing.usage_daily WHERE account_id = $1`,
      [accountId],
    );
    expect(rollup).toEqual([{ category: 'test', tasks: 1, cost_units: 2500 }]);
  });

  it('releases once and writes no record', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 3000 });
    const task = await reserved(accountId, 3000);
    expect(await ledger.release({ taskId: task.taskId, accountId })).toEqual({
      outcome: 'released',
      amountUnits: 3000,
    });
    expect(await ledger.release({ taskId: task.taskId, accountId })).toEqual({
      outcome: 'unchanged',
    });
    expect(await ledger.capture({ taskId: task.taskId, accountId })).toEqual({
      outcome: 'unchanged',
    });
    expect(await ledger.balanceOf(accountId)).toMatchObject({
      balanceUnits: 3000,
      reservedUnits: 0,
    });
    const [{ count }] = await dataSource.query(
      `SELECT count(*)::int AS count FROM billing.records WHERE account_id = $1 AND type = 'usage'`,
      [accountId],
    );
    expect(count).toBe(0);
  });

  it('releases stale reservations of one category once, and nothing else', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await ledger.openAccount({ accountId: a, currency: 'USD', initialUnits: 10_000 });
    await ledger.openAccount({ accountId: b, currency: 'USD', initialUnits: 10_000 });
    const reserve = async (accountId: string, amountUnits: number, category: string) => {
      const input = { ...reserveInput(accountId, amountUnits), category };
      expect(await ledger.reserve(dataSource.manager, input)).toEqual({ ok: true });
      return input.taskId;
    };
    const staleChatA = await reserve(a, 3000, CHAT_CATEGORY);
    const freshChatA = await reserve(a, 1000, CHAT_CATEGORY);
    const staleTaskA = await reserve(a, 2000, 'test');
    const staleChatB = await reserve(b, 500, CHAT_CATEGORY);
    await dataSource.query(
      `UPDATE billing.reservations SET created_at = now() - interval '2 hours' WHERE task_id = ANY($1)`,
      [[staleChatA, staleTaskA, staleChatB]],
    );
    const hour = 3_600_000;
    const first = await ledger.releaseStale({ category: CHAT_CATEGORY, olderThanMs: hour });
    expect(first.released).toBeGreaterThanOrEqual(2);
    expect(first.amountUnits).toBeGreaterThanOrEqual(3500);
    expect(await ledger.balanceOf(a)).toMatchObject({ balanceUnits: 10_000, reservedUnits: 3000 });
    expect(await ledger.balanceOf(b)).toMatchObject({ balanceUnits: 10_000, reservedUnits: 0 });
    const states: { task_id: string; state: string }[] = await dataSource.query(
      `SELECT task_id, state FROM billing.reservations WHERE account_id = ANY($1)`,
      [[a, b]],
    );
    expect(Object.fromEntries(states.map((r) => [r.task_id, r.state]))).toEqual({
      [staleChatA]: 'released',
      [freshChatA]: 'open',
      [staleTaskA]: 'open',
      [staleChatB]: 'released',
    });
    // Once: a second pass finds nothing, and a late settlement of a released one is a no-op.
    expect(await ledger.releaseStale({ category: CHAT_CATEGORY, olderThanMs: hour })).toEqual({
      released: 0,
      amountUnits: 0,
    });
    expect(await ledger.release({ taskId: staleChatA, accountId: a })).toEqual({
      outcome: 'unchanged',
    });
    expect(await ledger.balanceOf(a)).toMatchObject({ reservedUnits: 3000 });
  });

  it('settles nothing for an unknown task or another account', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 3000 });
    const task = await reserved(accountId, 1000);
    expect(await ledger.capture({ taskId: randomUUID(), accountId })).toEqual({
      outcome: 'unchanged',
    });
    expect(await ledger.capture({ taskId: task.taskId, accountId: randomUUID() })).toEqual({
      outcome: 'unchanged',
    });
    expect(await ledger.release({ taskId: task.taskId, accountId: randomUUID() })).toEqual({
      outcome: 'unchanged',
    });
    expect(await ledger.balanceOf(accountId)).toMatchObject({
      balanceUnits: 3000,
      reservedUnits: 1000,
    });
  });

  it('captures exactly once when captures and releases of one task race', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 10_000 });
    const task = await reserved(accountId, 1000);
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => ledger.capture({ taskId: task.taskId, accountId })),
      ...Array.from({ length: 2 }, () => ledger.release({ taskId: task.taskId, accountId })),
    ]);
    const changed = results.filter((r) => r.outcome !== 'unchanged');
    expect(changed).toHaveLength(1);
    const balance = await ledger.balanceOf(accountId);
    expect(balance?.reservedUnits).toBe(0);
    const [{ sum }] = await dataSource.query(
      `SELECT sum(amount_units)::bigint AS sum FROM billing.records WHERE account_id = $1`,
      [accountId],
    );
    expect(sum).toBe(balance?.balanceUnits);
  });
  describe('captureAmount (charge the actual cost, return the rest of the bound)', () => {
    it('charges the amount, releases the remainder, and settles once', async () => {
      const accountId = randomUUID();
      await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 10_000 });
      const chat = await reserved(accountId, 4000);
      const first = await ledger.captureAmount({
        taskId: chat.taskId,
        accountId,
        amountUnits: 1234,
      });
      expect(first).toMatchObject({
        outcome: 'captured',
        record: { type: 'usage', amountUnits: -1234, balanceAfterUnits: 8766, taskId: chat.taskId },
      });
      expect(await ledger.balanceOf(accountId)).toMatchObject({
        balanceUnits: 8766,
        reservedUnits: 0,
      });
      expect(
        await ledger.captureAmount({ taskId: chat.taskId, accountId, amountUnits: 1 }),
      ).toEqual({ outcome: 'unchanged' });
      expect(await ledger.release({ taskId: chat.taskId, accountId })).toEqual({
        outcome: 'unchanged',
      });
      const rollup = await dataSource.query(
        `SELECT tasks, cost_units FROM billing.usage_daily WHERE account_id = $1`,
        [accountId],
      );
      expect(rollup).toEqual([{ tasks: 1, cost_units: 1234 }]);
    });

    it('never charges more than the reservation', async () => {
      const accountId = randomUUID();
      await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 10_000 });
      const chat = await reserved(accountId, 500);
      const result = await ledger.captureAmount({
        taskId: chat.taskId,
        accountId,
        amountUnits: 9000,
      });
      expect(result).toMatchObject({ outcome: 'captured', record: { amountUnits: -500 } });
      expect(await ledger.balanceOf(accountId)).toMatchObject({
        balanceUnits: 9500,
        reservedUnits: 0,
      });
    });

    it('refuses a negative or fractional amount without touching the ledger', async () => {
      const accountId = randomUUID();
      await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 1000 });
      const chat = await reserved(accountId, 1000);
      for (const amountUnits of [-1, 1.5])
        await expect(
          ledger.captureAmount({ taskId: chat.taskId, accountId, amountUnits }),
        ).rejects.toThrow(RangeError);
      expect(await ledger.balanceOf(accountId)).toMatchObject({ reservedUnits: 1000 });
    });

    it('settles exactly once when amount captures and releases race', async () => {
      const accountId = randomUUID();
      await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 10_000 });
      const chat = await reserved(accountId, 3000);
      const results = await Promise.all([
        ...Array.from({ length: 6 }, (_, i) =>
          ledger.captureAmount({ taskId: chat.taskId, accountId, amountUnits: 1000 + i }),
        ),
        ...Array.from({ length: 2 }, () => ledger.release({ taskId: chat.taskId, accountId })),
      ]);
      expect(results.filter((r) => r.outcome !== 'unchanged')).toHaveLength(1);
      const balance = await ledger.balanceOf(accountId);
      expect(balance?.reservedUnits).toBe(0);
      const [{ sum, n }] = await dataSource.query(
        `SELECT sum(amount_units)::bigint AS sum, count(*)::int AS n FROM billing.records WHERE account_id = $1`,
        [accountId],
      );
      expect(sum).toBe(balance?.balanceUnits);
      expect(n).toBeLessThanOrEqual(2);
    });
  });
});
