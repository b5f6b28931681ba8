import { randomUUID } from 'node:crypto';
import type { ClientBase } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

describe('WebhookDeliveryRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let repo: WebhookDeliveryRepository;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await dataSource.initialize();
    repo = new WebhookDeliveryRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  const attempt = (n: number, extra: Partial<{ statusCode: number; error: string }> = {}) => ({
    attempt: n,
    startedAt: new Date(),
    durationMs: 12.4,
    statusCode: extra.statusCode ?? null,
    error: extra.error ?? null,
  });

  it('opens a delivery once and keeps the first one on a re-sent job', async () => {
    const taskId = randomUUID();
    const accountId = randomUUID();
    const first = await repo.openDelivery({ taskId, accountId, url: 'https://a.example/hook' });
    expect(first).toMatchObject({ taskId, accountId, status: 'pending', attempts: 0 });
    const again = await repo.openDelivery({ taskId, accountId, url: 'https://b.example/other' });
    expect(again?.url).toBe('https://a.example/hook');
  });

  it('records attempts in order, abandons after the last and never goes back', async () => {
    const taskId = randomUUID();
    const accountId = randomUUID();
    await repo.openDelivery({ taskId, accountId, url: 'https://a.example/hook' });
    const input = { taskId, accountId };
    expect(
      await repo.recordAttempt({ ...input, ...attempt(1, { statusCode: 500 }), outcome: 'failed' }),
    ).toBe(true);
    // The same attempt again (a re-run job) changes nothing.
    expect(
      await repo.recordAttempt({ ...input, ...attempt(1, { statusCode: 502 }), outcome: 'failed' }),
    ).toBe(false);
    expect(
      await repo.recordAttempt({
        ...input,
        ...attempt(2, { error: 'connect ECONNREFUSED' }),
        outcome: 'abandoned',
      }),
    ).toBe(true);
    expect(
      await repo.recordAttempt({
        ...input,
        ...attempt(3, { statusCode: 200 }),
        outcome: 'delivered',
      }),
    ).toBe(false);

    const log = await repo.findOwnedDeliveryLog(accountId, taskId);
    expect(log).toMatchObject({ status: 'abandoned', attempts: 2, deliveredAt: null });
    expect(log?.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 500, error: null, durationMs: 12 }),
      expect.objectContaining({ attempt: 2, statusCode: null, error: 'connect ECONNREFUSED' }),
    ]);
  });

  it('marks a 2xx attempt delivered with its time', async () => {
    const taskId = randomUUID();
    const accountId = randomUUID();
    await repo.openDelivery({ taskId, accountId, url: 'https://a.example/hook' });
    await repo.recordAttempt({
      taskId,
      accountId,
      ...attempt(1, { statusCode: 204 }),
      outcome: 'delivered',
    });
    const log = await repo.findOwnedDeliveryLog(accountId, taskId);
    expect(log?.status).toBe('delivered');
    expect(log?.deliveredAt).toBeInstanceOf(Date);
  });

  it('shows a delivery only to its own account, and a malformed id to nobody', async () => {
    const taskId = randomUUID();
    const accountId = randomUUID();
    await repo.openDelivery({ taskId, accountId, url: 'https://a.example/hook' });
    expect(await repo.findOwnedDeliveryLog(randomUUID(), taskId)).toBeUndefined();
    expect(await repo.findOwnedDeliveryLog(accountId, 'not-a-uuid')).toBeUndefined();
    expect(
      await repo.recordAttempt({
        taskId,
        accountId: randomUUID(),
        ...attempt(1, { statusCode: 200 }),
        outcome: 'delivered',
      }),
    ).toBe(false);
    expect((await repo.findOwnedDeliveryLog(accountId, taskId))?.attempts).toBe(0);
  });

  describe('deliveries claimed from the table (decision 0141)', () => {
    /** Opens a delivery due `dueInMs` from now (null: driven by jobs); its task id. */
    const due = async (dueInMs: number | null, accountId = randomUUID()) => {
      const taskId = randomUUID();
      await dataSource.query(
        `INSERT INTO webhooks.deliveries (task_id, account_id, url, body, due_at)
         VALUES ($1, $2, 'https://a.example/hook', '{}', now() + $3::int * interval '1 ms')`,
        [taskId, accountId, dueInMs],
      );
      return { taskId, accountId };
    };
    const claimedIds = async (limit: number, leaseMs = 60_000) =>
      (await repo.claimDue(limit, leaseMs)).map((d) => d.taskId);
    afterEach(() =>
      dataSource.query(`UPDATE webhooks.deliveries SET due_at = NULL WHERE due_at IS NOT NULL`),
    );

    it('claims what is due, oldest first, once until the claim lapses; never what is not due', async () => {
      const older = await due(-2000);
      const newer = await due(-1000);
      await due(60_000); // not yet
      await due(null); // a job's
      expect(await claimedIds(1)).toEqual([older.taskId]);
      expect(await claimedIds(10, 300)).toEqual([newer.taskId]);
      expect(await claimedIds(10)).toEqual([]);
      const [claim] = await repo.claimDue(10, 300); // nothing more due
      expect(claim).toBeUndefined();
      // The short claim lapses: the delivery is claimed again, with what its attempt sends.
      await new Promise((r) => setTimeout(r, 400));
      expect(await repo.claimDue(10, 60_000)).toEqual([
        {
          taskId: newer.taskId,
          event: 'completed',
          accountId: newer.accountId,
          url: 'https://a.example/hook',
          body: '{}',
          attempts: 0,
          createdAt: expect.any(Date),
          requestId: null,
        },
      ]);
    });

    it('records and claims in one statement, never claiming a delivery it records', async () => {
      const recorded = await due(-1);
      await claimedIds(10, 1); // a claim that lapses at once
      await new Promise((r) => setTimeout(r, 20));
      const fresh = await due(-1);
      const done = await repo.recordAndClaim(
        [{ ...recorded, ...attempt(1, { statusCode: 503 }), outcome: 'failed', nextDueInMs: 0 }],
        10,
        60_000,
      );
      expect(done.recorded).toEqual([true]);
      // Its claim had lapsed and it is due again, but this statement records it: not claimed.
      expect(done.claimed.map((d) => d.taskId)).toEqual([fresh.taskId]);
      expect(await claimedIds(10)).toEqual([recorded.taskId]);
    });

    it('never gives one delivery to two claims made at once', async () => {
      const opened = await Promise.all(Array.from({ length: 60 }, () => due(-1)));
      const claims = await Promise.all(Array.from({ length: 6 }, () => claimedIds(15)));
      const all = claims.flat();
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual(opened.map((d) => d.taskId).sort());
    });

    it('records many attempts in one statement, each as if alone; a failed one is due again after its delay', async () => {
      const ok = await due(-1);
      const failing = await due(-1);
      const gone = await due(-1);
      await claimedIds(10);
      await repo.recordAttempt({
        ...gone,
        ...attempt(1, { statusCode: 200 }),
        outcome: 'delivered',
      });
      const recorded = await repo.recordAttempts([
        { ...ok, ...attempt(1, { statusCode: 204 }), outcome: 'delivered' },
        { ...failing, ...attempt(1, { statusCode: 500 }), outcome: 'failed', nextDueInMs: 2000 },
        { ...gone, ...attempt(1, { statusCode: 200 }), outcome: 'delivered' }, // already recorded
      ]);
      expect(recorded).toEqual([true, true, false]);
      const rows: { task_id: string; status: string; due_in: number | null; claimed: boolean }[] =
        await dataSource.query(
          `SELECT task_id, status, extract(epoch FROM due_at - now()) * 1000 AS due_in,
                  claimed_until IS NOT NULL AS claimed
             FROM webhooks.deliveries WHERE task_id = ANY($1::uuid[])`,
          [[ok.taskId, failing.taskId]],
        );
      const byId = new Map(rows.map((r) => [r.task_id, r]));
      expect(byId.get(ok.taskId)).toMatchObject({
        status: 'delivered',
        due_in: null,
        claimed: false,
      });
      expect(byId.get(failing.taskId)).toMatchObject({ status: 'pending', claimed: false });
      expect(Number(byId.get(failing.taskId)?.due_in)).toBeGreaterThan(1500);
      expect(Number(byId.get(failing.taskId)?.due_in)).toBeLessThanOrEqual(2000);
      expect((await repo.findOwnedDeliveryLog(failing.accountId, failing.taskId))?.attempts).toBe(
        1,
      );
    });

    it('gives claimed deliveries back due later, and says when the next one falls due', async () => {
      expect(await repo.nextDue()).toBeUndefined();
      const a = await due(-1);
      const [claimed] = await repo.claimDue(10, 60_000);
      // Claimed: the next moment anything falls due is when the claim lapses.
      expect((await repo.nextDue())!.getTime()).toBeGreaterThan(Date.now() + 50_000);
      await repo.releaseDue([claimed], 250);
      const next = (await repo.nextDue())!.getTime();
      expect(next).toBeGreaterThan(Date.now());
      expect(next).toBeLessThan(Date.now() + 1000);
      expect(await claimedIds(10)).toEqual([]);
      await new Promise((r) => setTimeout(r, 300));
      expect(await claimedIds(10)).toEqual([a.taskId]);
    });

    it('walks the due index and the primary key, even with plans made while the table was small (decision 0144)', async () => {
      // One connection, whose plans PostgreSQL prints to it (auto_explain at NOTICE level).
      const single = new DataSource(
        dataSourceOptions({ url: process.env.DATABASE_URL as string, poolSize: 1 }),
      );
      await single.initialize();
      try {
        const plans: string[] = [];
        const runner = single.createQueryRunner();
        const client = (await runner.connect()) as ClientBase;
        client.on('notice', (notice) => plans.push(notice.message ?? ''));
        for (const setting of [
          `LOAD 'auto_explain'`,
          `SET auto_explain.log_min_duration = 0`,
          `SET auto_explain.log_level = notice`,
          `SET client_min_messages = notice`,
        ])
          await runner.query(setting);
        await runner.release();

        // Seven rounds on a table of a few rows: a prepared statement's first
        // five runs get plans of their own, the sixth makes the one it keeps.
        const reads = new WebhookDeliveryRepository(single);
        const claimed: string[] = [];
        for (let round = 0; round < 7; round++) {
          const a = await due(-1);
          const [delivery] = await reads.claimDue(10, 60_000);
          claimed.push(delivery.taskId);
          expect(await reads.dueCounts(100)).toEqual({ waiting: 0, claimed: 1 });
          expect((await reads.nextDue())!.getTime()).toBeGreaterThan(Date.now());
          await reads.releaseDue([delivery], 60_000);
          const [recorded] = await reads.recordAttempts([
            { ...a, ...attempt(1, { statusCode: 200 }), outcome: 'delivered' },
          ]);
          expect(recorded).toBe(true);
        }
        expect(claimed).toHaveLength(7);

        const onDeliveries = plans.filter((plan) => /on deliveries\b/.test(plan));
        // Each round: the claim, the counts, the next due, the release, the record.
        expect(onDeliveries.length).toBeGreaterThanOrEqual(7 * 5);
        // Whole-table scans, by the line that names them: none.
        const wholeTable = onDeliveries.flatMap((plan) =>
          plan.split('\n').filter((line) => /(Seq|Bitmap Heap) Scan on deliveries\b/.test(line)),
        );
        expect(wholeTable).toEqual([]);
        expect(
          onDeliveries.filter((plan) => plan.includes('Index Scan using deliveries_due')).length,
        ).toBeGreaterThanOrEqual(7 * 3);
      } finally {
        await single.destroy();
      }
    });
  });
});
