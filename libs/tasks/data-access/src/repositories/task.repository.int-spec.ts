import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { TaskRepository } from './task.repository';
import type { NewTask } from './task-writes.types';
import { OutboxRepository } from './outbox.repository';

const timings = { queue_wait: 1, worker_init: 1, api_call: 1, save: 1, run_overhead: 1, total: 5 };

describe('TaskRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let tasks: TaskRepository;
  const outbox = new OutboxRepository();

  beforeAll(async () => {
    ds = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await ds.initialize();
    tasks = new TaskRepository(ds);
  });
  afterAll(() => ds.destroy());

  function newTask(over: Partial<NewTask> = {}): NewTask {
    return {
      id: randomUUID(),
      accountId: randomUUID(),
      model: 'local/simulator/test',
      channel: 'stable',
      category: 'test',
      input: { prompt: 'p' },
      webhookUrl: null,
      outputPrefix: null,
      priceUnits: 1000,
      timeLimitMs: 1000,
      ...over,
    };
  }

  /** A `created` task as submit writes it, minus the reservation. */
  async function insertTask(t: NewTask): Promise<Date> {
    const created = await tasks.insertReserved(
      { sql: 'granted AS (SELECT 1 AS one)', params: [], yields: 'granted' },
      t,
      [],
    );
    if (!created) throw new Error('not inserted');
    return created.createdAt;
  }

  it('scopes reads by account and hides malformed ids', async () => {
    const t = newTask();
    const createdAt = await insertTask(t);
    expect(createdAt.getTime() % 1).toBe(0);
    expect((await tasks.findOwnedTask(t.accountId, t.id))?.status).toBe('created');
    expect(await tasks.findOwnedTask(randomUUID(), t.id)).toBeUndefined();
    expect(await tasks.findOwnedTask(t.accountId, 'not-a-uuid')).toBeUndefined();
  });

  it('lets only the latest attempt finish, once', async () => {
    const t = newTask();
    await insertTask(t);
    const first = await tasks.claimForRun(t.id);
    expect(first).toMatchObject({ status: 'processing', attempt: 1 });
    const second = await tasks.claimForRun(t.id); // a stalled run picked up again
    expect(second?.attempt).toBe(2);
    const fields = { outputs: ['u'], outputKeys: ['k'], timings };
    expect(await tasks.completeAnnouncing(t.id, 1, fields, [])).toBeUndefined();
    expect((await tasks.completeAnnouncing(t.id, 2, fields, []))?.task).toMatchObject({
      status: 'completed',
      code: 0,
    });
    expect(await tasks.completeAnnouncing(t.id, 2, fields, [])).toBeUndefined();
    expect(
      await tasks.failAnnouncing(t.id, null, { code: 5000, error: 'x', timings: null }, []),
    ).toBeUndefined();
    expect(await tasks.claimForRun(t.id)).toBeUndefined();
  });

  it('lets a run that never claimed the task finish it only from created, claiming it there', async () => {
    const fields = { outputs: ['u'], outputKeys: [], timings };
    const startedAt = new Date(Date.now() - 5);
    // Unclaimed and untouched: created → completed, attempt 1, started at the run's start.
    const quick = newTask();
    await insertTask(quick);
    const won = await tasks.completeAnnouncing(quick.id, { unclaimedSince: startedAt }, fields, []);
    expect(won?.task).toMatchObject({ status: 'completed', attempt: 1, startedAt });
    expect(
      await tasks.completeAnnouncing(quick.id, { unclaimedSince: startedAt }, fields, []),
    ).toBeUndefined();
    // Claimed meanwhile (a slower run of the same job): the unclaimed run loses, the claimant wins.
    const claimed = newTask();
    await insertTask(claimed);
    await tasks.claimForRun(claimed.id);
    const failed = { code: 5000, error: 'x', timings: null };
    expect(
      await tasks.failAnnouncing(claimed.id, { unclaimedSince: startedAt }, failed, []),
    ).toBeUndefined();
    expect((await tasks.completeAnnouncing(claimed.id, 1, fields, []))?.task.status).toBe(
      'completed',
    );
    // A claimed run's attempt never matches a task still created.
    const waiting = newTask();
    await insertTask(waiting);
    expect(await tasks.completeAnnouncing(waiting.id, 1, fields, [])).toBeUndefined();
    expect((await tasks.findOwnedTask(waiting.accountId, waiting.id))?.status).toBe('created');
  });

  it('stamps a version-2 run job with the row’s created_at, and leaves other payloads alone', async () => {
    const t = newTask();
    const created = await tasks.insertReserved(
      { sql: 'granted AS (SELECT 1 AS one)', params: [], yields: 'granted' },
      t,
      [
        { jobName: 'run-task', jobId: `task-${t.id}`, payload: { v: 2, taskId: t.id, task: {} } },
        { jobName: 'other', jobId: `other-${t.id}`, payload: { v: 1, taskId: t.id } },
      ],
    );
    if (!created) throw new Error('not inserted');
    const [run, other] = created.outbox;
    const stamped = (run.payload as { task: { createdAt: string } }).task.createdAt;
    expect(new Date(stamped).getTime()).toBe(created.createdAt.getTime());
    expect(other.payload).toEqual({ v: 1, taskId: t.id });
    await ds.query(`DELETE FROM tasks.outbox WHERE id = ANY($1)`, [[run.id, other.id]]);
  });

  // Named otherwise than the ledger's CTE: the repository reads the name from `yields`.
  const reservedWhen = (ok: boolean) => ({
    sql: `granted AS (SELECT 1 AS one WHERE $1::boolean)`,
    params: [ok],
    yields: 'granted',
  });
  const runJob = (taskId: string) => ({
    jobName: 'run-task',
    jobId: `task-${taskId}`,
    payload: { v: 1, taskId },
  });
  async function outboxRowsFor(jobId: string): Promise<number> {
    const rows: { n: number }[] = await ds.query(
      `SELECT count(*)::int AS n FROM tasks.outbox WHERE job_id = $1`,
      [jobId],
    );
    return rows[0].n;
  }

  it('writes the task and its outbox rows in the reservation statement, only when reserved', async () => {
    const refused = newTask();
    expect(
      await tasks.insertReserved(reservedWhen(false), refused, [runJob(refused.id)]),
    ).toBeUndefined();
    expect(await tasks.findOwnedTask(refused.accountId, refused.id)).toBeUndefined();
    expect(await outboxRowsFor(`task-${refused.id}`)).toBe(0);

    const t = newTask({ idempotencyKey: 'k1', requestHash: 'h' });
    const created = await tasks.insertReserved(reservedWhen(true), t, [runJob(t.id)]);
    expect(created?.createdAt).toBeInstanceOf(Date);
    expect(created?.outbox).toEqual([{ id: expect.any(Number), ...runJob(t.id) }]);
    expect(await tasks.findOwnedTask(t.accountId, t.id)).toMatchObject({
      status: 'created',
      input: { prompt: 'p' },
      priceUnits: 1000,
      idempotencyKey: 'k1',
    });
    await outbox.remove(ds.manager, created?.outbox.map((r) => r.id) ?? []);
  });

  it('writes the jobs announcing a terminal state only when the write wins', async () => {
    const t = newTask();
    await insertTask(t);
    await tasks.claimForRun(t.id);
    await tasks.claimForRun(t.id);
    const settle = { jobName: 'settle-task', jobId: `settle-${t.id}`, payload: { v: 1 } };
    const fields = { outputs: ['u'], outputKeys: ['k'], timings };
    expect(await tasks.completeAnnouncing(t.id, 1, fields, [settle])).toBeUndefined();
    expect(await outboxRowsFor(settle.jobId)).toBe(0);
    const won = await tasks.failAnnouncing(t.id, 2, { code: 5001, error: 'e', timings: null }, [
      settle,
    ]);
    expect(won?.task).toMatchObject({ status: 'failed', code: 5001, error: 'e', attempt: 2 });
    expect((await tasks.findOwnedTask(t.accountId, t.id))?.outputs).toEqual([]);
    expect(won?.outbox).toEqual([{ id: expect.any(Number), ...settle }]);
    expect(await outboxRowsFor(settle.jobId)).toBe(1);
    await outbox.remove(ds.manager, won?.outbox.map((r) => r.id) ?? []);
  });

  it('outbox: the poll leaves rows younger than its grace to their writer', async () => {
    const [row] = await outbox.add(ds.manager, [runJob(randomUUID())]);
    const claimed = (grace: number) =>
      ds.transaction(async (m) => (await outbox.claim(m, 10, grace)).map((r) => r.id));
    expect(await claimed(60_000)).not.toContain(row.id);
    expect(await claimed(0)).toContain(row.id);
    // The poll's probe agrees with its claim.
    expect(await outbox.hasDue(ds.manager, 3_600_000)).toBe(false);
    expect(await outbox.hasDue(ds.manager, 0)).toBe(true);
    await outbox.remove(ds.manager, [row.id]);
  });

  it('deletes only from the state the caller saw', async () => {
    const t = newTask();
    await insertTask(t);
    expect(await tasks.markDeleted(ds.manager, t.accountId, t.id, 'processing')).toBe(false);
    expect(await tasks.markDeleted(ds.manager, randomUUID(), t.id, 'created')).toBe(false);
    expect(await tasks.markDeleted(ds.manager, t.accountId, t.id, 'created')).toBe(true);
    expect(await tasks.findOwnedTask(t.accountId, t.id)).toBeUndefined();
    expect(await tasks.claimForRun(t.id)).toBeUndefined();
  });

  it('reports recent run durations of one model and channel', async () => {
    const model = `m/${randomUUID()}/x`;
    for (let i = 0; i < 2; i++) {
      const t = newTask({ model });
      await insertTask(t);
      await tasks.claimForRun(t.id);
      await tasks.completeAnnouncing(t.id, 1, { outputs: [], outputKeys: [], timings }, []);
    }
    const seconds = await tasks.recentRunSeconds(model, 'stable', 10);
    expect(seconds).toHaveLength(2);
    expect(seconds.every((s) => s >= 0 && s < 5)).toBe(true);
    expect(await tasks.recentRunSeconds(model, 'economy', 10)).toEqual([]);
  });

  it('outbox: claims skip rows locked by another relay', async () => {
    await outbox.add(ds.manager, [
      { jobName: 'run-task', jobId: 'task-a', payload: { v: 1, taskId: 'a' } },
      { jobName: 'run-task', jobId: 'task-b', payload: { v: 1, taskId: 'b' } },
    ]);
    const runner = ds.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const mine = await outbox.claim(runner.manager, 1);
      expect(mine).toHaveLength(1);
      const other = await ds.transaction((m) => outbox.claim(m, 10));
      expect(other.map((r) => r.id)).not.toContain(mine[0].id);
      await outbox.remove(runner.manager, [mine[0].id]);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    await ds.transaction(async (m) =>
      outbox.remove(
        m,
        (await outbox.claim(m, 10)).map((r) => r.id),
      ),
    );
    expect(await ds.transaction((m) => outbox.claim(m, 10))).toEqual([]);
  });
});
