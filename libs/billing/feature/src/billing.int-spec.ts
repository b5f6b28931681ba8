import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  BillingHistoryRepository,
  LedgerAuditRepository,
  LedgerRepository,
} from '@genhub/billing-data-access';
import { dataSourceOptions } from '@genhub/database';
import { AppException } from '@genhub/errors';
import { AuditLedgerUseCase } from './use-cases/audit-ledger/audit-ledger.use-case';
import { ExportBillingsUseCase } from './use-cases/export-billings/export-billings.use-case';
import { GetBalanceUseCase } from './use-cases/get-balance/get-balance.use-case';
import { GetUsageUseCase } from './use-cases/get-usage/get-usage.use-case';
import { ListBillingsUseCase } from './use-cases/list-billings/list-billings.use-case';
import { SettleTaskUseCase } from './use-cases/settle-task/settle-task.use-case';

// eslint-disable-next-line @nx/enforce-module-boundaries -- a plain Node tool, not a lib
const { seedLedger } = require('../../../../tools/seed-billing/seed-ledger.cjs') as {
  seedLedger: (
    client: Client,
    opts: { accountId: string; records: number; days?: number },
  ) => Promise<{ balanceUnits: number; topups: number; usages: number }>;
};

/** Parses RFC 4180 text (quoted fields, doubled quotes, CRLF) back into rows; throws on anything else. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
      continue;
    } else if (c === '"' || c === '\n' || c === '\r') {
      throw new Error(`bad CSV at ${i}`);
    } else {
      field += c;
    }
    i++;
  }
  if (field !== '' || row.length) throw new Error('CSV does not end with CRLF');
  return rows;
}

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

describe('billing use-cases (PostgreSQL)', () => {
  let dataSource: DataSource;
  let pg: Client;
  let ledger: LedgerRepository;
  let settle: SettleTaskUseCase;
  let balance: GetBalanceUseCase;
  let billings: ListBillingsUseCase;
  let usage: GetUsageUseCase;
  let exporter: ExportBillingsUseCase;
  let audit: AuditLedgerUseCase;

  beforeAll(async () => {
    dataSource = new DataSource(
      dataSourceOptions({
        url: process.env.DATABASE_URL as string,
        poolSize: 20,
      }),
    );
    await dataSource.initialize();
    pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
    ledger = new LedgerRepository(dataSource);
    const history = new BillingHistoryRepository(dataSource);
    settle = new SettleTaskUseCase(ledger);
    balance = new GetBalanceUseCase(ledger);
    billings = new ListBillingsUseCase(history);
    usage = new GetUsageUseCase(history);
    exporter = new ExportBillingsUseCase(history);
    audit = new AuditLedgerUseCase(new LedgerAuditRepository(dataSource));
  });
  afterAll(async () => {
    await pg.end();
    await dataSource.destroy();
  });

  const PRICE = 1000; // 0.001, the simulator's price

  async function account(units: number): Promise<string> {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: units });
    return accountId;
  }

  async function submit(accountId: string, category = 'test', amountUnits = PRICE) {
    const taskId = randomUUID();
    const result = await dataSource.transaction((m) =>
      ledger.reserve(m, {
        accountId,
        taskId,
        amountUnits,
        model: `m/${category}`,
        category,
        apiKeyId: null,
      }),
    );
    return { taskId, ok: result.ok };
  }

  async function expectAuditClean(accountId: string): Promise<void> {
    const report = await audit.execute();
    expect(report.failing.filter((a) => a.accountId === accountId)).toEqual([]);
  }

  it('funded for exactly K tasks, 5K parallel submits: K accepted, never negative, audit clean', async () => {
    const K = 12;
    const accountId = await account(K * PRICE);
    const submits = await Promise.all(Array.from({ length: 5 * K }, () => submit(accountId)));
    const accepted = submits.filter((s) => s.ok);
    expect(accepted).toHaveLength(K);
    expect(await balance.execute({ accountId, currency: 'USD' })).toEqual({
      balance: 0,
      currency: 'USD',
    });
    // Half complete, half fail, all settled in parallel and every event delivered twice.
    const settles = accepted.flatMap((s, i) => {
      const outcome = i % 2 === 0 ? ('capture' as const) : ('release' as const);
      return [0, 1].map(() => settle.execute({ taskId: s.taskId, accountId, outcome }));
    });
    const outcomes = await Promise.all(settles);
    expect(outcomes.filter((o) => o === 'captured')).toHaveLength(K / 2);
    expect(outcomes.filter((o) => o === 'released')).toHaveLength(K / 2);
    expect(outcomes.filter((o) => o === 'unchanged')).toHaveLength(K);
    const view = await ledger.balanceOf(accountId);
    expect(view).toMatchObject({ balanceUnits: (K / 2) * PRICE, reservedUnits: 0 });
    await expectAuditClean(accountId);
  });

  it('a failed task (release) leaves no usage record and restores the balance', async () => {
    const accountId = await account(5 * PRICE);
    const task = await submit(accountId);
    expect((await balance.execute({ accountId, currency: 'USD' })).balance).toBe(0.004);
    expect(await settle.execute({ taskId: task.taskId, accountId, outcome: 'release' })).toBe(
      'released',
    );
    expect((await balance.execute({ accountId, currency: 'USD' })).balance).toBe(0.005);
    const page = await billings.execute({ accountId });
    expect(page.total).toBe(1);
    expect(page.records.map((r) => r.type)).toEqual(['top-up']);
    expect((await usage.execute({ accountId })).total_tasks).toBe(0);
    await expectAuditClean(accountId);
  });

  it('a duplicated terminal event captures once, and so do two concurrent ones', async () => {
    const accountId = await account(5 * PRICE);
    const a = await submit(accountId);
    expect(await settle.execute({ taskId: a.taskId, accountId, outcome: 'capture' })).toBe(
      'captured',
    );
    expect(await settle.execute({ taskId: a.taskId, accountId, outcome: 'capture' })).toBe(
      'unchanged',
    );
    const b = await submit(accountId);
    const both = await Promise.all([
      settle.execute({ taskId: b.taskId, accountId, outcome: 'capture' }),
      settle.execute({ taskId: b.taskId, accountId, outcome: 'capture' }),
    ]);
    expect(both.sort()).toEqual(['captured', 'unchanged']);
    const page = await billings.execute({ accountId, type: 'usage' });
    expect(page.total).toBe(2);
    expect(page.records.map((r) => r.task_id).sort()).toEqual([a.taskId, b.taskId].sort());
    expect(await balance.execute({ accountId, currency: 'USD' })).toEqual({
      balance: 0.003,
      currency: 'USD',
    });
    await expectAuditClean(accountId);
  });

  it('shows records in the interface shape, newest first, model and task_id only on usage', async () => {
    const accountId = await account(2 * PRICE);
    const task = await submit(accountId, 'text-to-image', 1500);
    await settle.execute({ taskId: task.taskId, accountId, outcome: 'capture' });
    const today = new Date().toISOString().slice(0, 10);
    const page = await billings.execute({ accountId });
    expect(page).toEqual({
      records: [
        {
          id: expect.any(String),
          date: today,
          type: 'usage',
          amount: -0.0015,
          model: 'm/text-to-image',
          task_id: task.taskId,
          balance_after: 0.0005,
        },
        {
          id: expect.any(String),
          date: today,
          type: 'top-up',
          amount: 0.002,
          balance_after: 0.002,
        },
      ],
      total: 2,
      page: 1,
      per_page: 20,
    });
    expect(Object.keys(page.records[0])).toEqual([
      'id',
      'date',
      'type',
      'amount',
      'model',
      'task_id',
      'balance_after',
    ]);
  });

  it('usage and billings agree', async () => {
    const accountId = await account(1000 * PRICE);
    const plan = [
      ...Array.from({ length: 7 }, () => ['test', 1000] as const),
      ...Array.from({ length: 4 }, () => ['text-to-image', 5000] as const),
      ...Array.from({ length: 3 }, () => ['text-to-video', 3000] as const),
    ];
    const tasks = await Promise.all(plan.map(([c, p]) => submit(accountId, c, p)));
    await Promise.all(
      tasks.map((t, i) =>
        settle.execute({
          taskId: t.taskId,
          accountId,
          outcome: i % 5 === 4 ? 'release' : 'capture',
        }),
      ),
    );
    const stats = await usage.execute({ accountId });
    const page = await billings.execute({ accountId, type: 'usage', perPage: 100 });
    expect(stats.total_tasks).toBe(page.total);
    const costUnits = page.records.reduce((s, r) => s - Math.round(r.amount * 1e6), 0);
    expect(Math.round(stats.total_cost * 1e6)).toBe(costUnits);
    const byCategory: Record<string, { tasks: number; cost: number }> = {};
    for (const r of page.records) {
      const category = r.model?.slice(2) as string;
      byCategory[category] ??= { tasks: 0, cost: 0 };
      byCategory[category].tasks += 1;
      byCategory[category].cost = Math.round((byCategory[category].cost - r.amount) * 1e6) / 1e6;
    }
    expect(stats.breakdown).toEqual(byCategory);
    expect(stats.period).toBe(new Date().toISOString().slice(0, 7));
    // Another month has nothing; a range ending today has it all.
    expect((await usage.execute({ accountId, period: '2020-01' })).total_tasks).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await usage.execute({ accountId, endDate: today })).total_tasks).toBe(page.total);
    await expectAuditClean(accountId);
  });

  it('refuses bad paging and filters with a 400', async () => {
    const accountId = await account(0);
    for (const input of [{ page: 0 }, { perPage: 101 }, { perPage: 1.5 }, { type: 'refund' }]) {
      await expect(billings.execute({ accountId, ...(input as object) })).rejects.toMatchObject({
        code: 'invalid_request',
      });
    }
    await expect(usage.execute({ accountId, period: '2025-13' })).rejects.toBeInstanceOf(
      AppException,
    );
  });

  describe('on a seeded account', () => {
    const N = 5003;
    const accountId = randomUUID();
    let seeded: { balanceUnits: number; topups: number; usages: number };

    beforeAll(async () => {
      seeded = await seedLedger(pg, { accountId, records: N, days: 40 });
    });

    it('is consistent: audit clean, balance = records', async () => {
      expect(seeded.topups + seeded.usages).toBe(N);
      await expectAuditClean(accountId);
      const view = await ledger.balanceOf(accountId);
      expect(view?.balanceUnits).toBe(seeded.balanceUnits);
    });

    it('pages deep without gaps or overlaps, newest first, with and without a type filter', async () => {
      const all: { rows: { id: string; type: string }[]; total: number }[] = [];
      for (const type of [undefined, 'usage', 'top-up'] as const) {
        const rows: { id: string; type: string }[] = [];
        let total = -1;
        for (let page = 1; ; page++) {
          const p = await billings.execute({ accountId, page, perPage: 97, type });
          total = p.total;
          if (p.records.length === 0) break;
          rows.push(...p.records);
          if (type) expect(p.records.every((r) => r.type === type)).toBe(true);
        }
        all.push({ rows, total });
      }
      const [everything, usages, topups] = all;
      expect(everything.total).toBe(N);
      expect(everything.rows).toHaveLength(N);
      expect(new Set(everything.rows.map((r) => r.id)).size).toBe(N);
      expect(usages.rows).toHaveLength(seeded.usages);
      expect(topups.rows).toHaveLength(seeded.topups);
      expect(usages.total + topups.total).toBe(N);
      // The filtered lists are the unfiltered one, split by type, in the same order.
      expect(usages.rows.map((r) => r.id)).toEqual(
        everything.rows.filter((r) => r.type === 'usage').map((r) => r.id),
      );
      expect(topups.rows.map((r) => r.id)).toEqual(
        everything.rows.filter((r) => r.type === 'top-up').map((r) => r.id),
      );
      // Newest first: the oldest record (the opening top-up) comes last.
      const { rows } = await pg.query(
        `SELECT id FROM billing.records WHERE account_id = $1 ORDER BY seq`,
        [accountId],
      );
      expect(everything.rows.map((r) => r.id)).toEqual(rows.map((r) => r.id).reverse());
    });

    it('answers exact page boundaries and past-the-end pages', async () => {
      const last = await billings.execute({ accountId, page: Math.ceil(N / 20), perPage: 20 });
      expect(last.records).toHaveLength(N % 20);
      expect(last.records[last.records.length - 1]).toMatchObject({
        type: 'top-up',
        amount: 100,
        balance_after: 100,
      });
      const beyond = await billings.execute({ accountId, page: 10_000, perPage: 100 });
      expect(beyond).toEqual({ records: [], total: N, page: 10_000, per_page: 100 });
      const first = await billings.execute({ accountId, page: 1, perPage: 1 });
      expect(first.records[0].balance_after).toBe(seeded.balanceUnits / 1e6);
    });

    it('usage over the whole range agrees with the records', async () => {
      const stats = await usage.execute({
        accountId,
        startDate: '2000-01-01',
        endDate: new Date().toISOString().slice(0, 10),
      });
      expect(stats.total_tasks).toBe(seeded.usages);
      expect(stats.period).toBe('2000-01');
      const { rows } = await pg.query(
        `SELECT -sum(amount_units)::bigint AS cost FROM billing.records WHERE account_id = $1 AND type = 'usage'`,
        [accountId],
      );
      expect(Math.round(stats.total_cost * 1e6)).toBe(Number(rows[0].cost));
      expect(Object.keys(stats.breakdown).sort()).toEqual([
        'test',
        'text-to-image',
        'text-to-video',
      ]);
    });

    it('exports valid CSV in batches: every record in range once, newest first', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const from = new Date(Date.now() - 10 * 86400_000).toISOString().slice(0, 10);
      const result = await exporter.execute({
        accountId,
        startDate: from,
        endDate: today,
        batchSize: 250,
      });
      const rows = parseCsv(await collect(result.chunks));
      expect(rows[0]).toEqual([
        'id',
        'date',
        'type',
        'amount',
        'model',
        'task_id',
        'balance_after',
      ]);
      const { rows: expected } = await pg.query(
        `SELECT id::text FROM billing.records WHERE account_id = $1
            AND created_at >= $2::date::timestamp AT TIME ZONE 'UTC' ORDER BY created_at DESC, seq DESC`,
        [accountId, from],
      );
      expect(expected.length).toBeGreaterThan(500);
      expect(rows.slice(1).map((r) => r[0])).toEqual(expected.map((r) => r.id));
      for (const r of rows.slice(1)) {
        expect(r).toHaveLength(7);
        expect(r[1] >= from && r[1] <= today).toBe(true);
        if (r[2] === 'usage') expect(Number(r[3])).toBeLessThan(0);
        else expect([r[4], r[5]]).toEqual(['', '']);
      }
      const usageOnly = await exporter.execute({
        accountId,
        startDate: from,
        endDate: today,
        type: 'top-up',
        batchSize: 7,
      });
      const topups = parseCsv(await collect(usageOnly.chunks)).slice(1);
      expect(topups.length).toBeGreaterThan(0);
      expect(topups.every((r) => r[2] === 'top-up' && r[3] === '100')).toBe(true);
    });

    it('exports just the header for an empty range and refuses a reversed one', async () => {
      const empty = await exporter.execute({
        accountId,
        startDate: '2001-01-01',
        endDate: '2001-01-31',
      });
      expect(await collect(empty.chunks)).toBe(
        'id,date,type,amount,model,task_id,balance_after\r\n',
      );
      await expect(
        exporter.execute({ accountId, startDate: '2001-02-01', endDate: '2001-01-31' }),
      ).rejects.toMatchObject({ code: 'invalid_request' });
    });
  });

  it('audit names an account whose ledger does not hold', async () => {
    const accountId = await account(5 * PRICE);
    await submit(accountId);
    await pg.query(
      `UPDATE billing.balances SET balance_units = balance_units + 1 WHERE account_id = $1`,
      [accountId],
    );
    const stale = await account(5 * PRICE);
    await submit(stale);
    await pg.query(
      `UPDATE billing.reservations SET created_at = now() - interval '2 hours' WHERE account_id = $1`,
      [stale],
    );
    const report = await audit.execute({ horizonMs: 3600_000 });
    expect(report.ok).toBe(false);
    const broken = report.failing.find((a) => a.accountId === accountId);
    expect(broken?.problems.join('; ')).toMatch(/sum of records 0\.005000 != balance 0\.005001/);
    const old = report.failing.find((a) => a.accountId === stale);
    expect(old?.problems.join('; ')).toMatch(/1 open reservation\(s\) older than 3600000 ms/);
    // Repair both so later audits in this run stay meaningful.
    await pg.query(
      `UPDATE billing.balances SET balance_units = balance_units - 1 WHERE account_id = $1`,
      [accountId],
    );
    await pg.query(`UPDATE billing.reservations SET created_at = now() WHERE account_id = $1`, [
      stale,
    ]);
    const after = await audit.execute({ horizonMs: 3600_000 });
    expect(after.failing.filter((a) => [accountId, stale].includes(a.accountId))).toEqual([]);
  });
});
