import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import {
  anyRowIn,
  dataSourceOptions,
  runStatement,
  statementsOf,
  withSteps,
} from '@genhub/database';
import type { DB as TasksTables } from '../generated/schema.types';
import {
  type TerminalFields,
  withOutboxRow,
  withTaskCreated,
  withTaskFinished,
} from '../statements/task.statements';
import type { TaskStatus } from '../task-status';
import { TaskRepository } from './task.repository';
import type { NewTask } from './task-writes.types';
import { OutboxItem, OutboxRepository } from './outbox.repository';

const timings = { queue_wait: 1, worker_init: 1, api_call: 1, save: 1, run_overhead: 1, total: 5 };
const statement = statementsOf<TasksTables>();
const OPEN: TaskStatus[] = ['created', 'processing'];

describe('TaskRepository and the tasks steps (PostgreSQL)', () => {
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

  /** The create step alone, gated by `when`, with its outbox row gated on the task's row. */
  async function create(t: NewTask, when: boolean, announce?: OutboxItem) {
    const created = withTaskCreated(statement, t, sql<boolean>`${when}`);
    const rows = announce
      ? await runStatement(
          ds.manager,
          withSteps(created, withOutboxRow, announce, anyRowIn(created, 'task_created'))
            .selectFrom(['task_created', 'outbox_row'])
            .select(['task_created.created_at', 'outbox_row.id']),
        )
      : await runStatement(ds.manager, created.selectFrom('task_created').select('created_at'));
    return rows[0];
  }

  async function insertTask(t: NewTask): Promise<Date> {
    const row = await create(t, true);
    if (!row) throw new Error('not inserted');
    return row.created_at;
  }

  /** The terminal step from `from` at `attempt`, with an outbox row only if it won. */
  async function finish(
    id: string,
    attempt: number | null,
    terminal: TerminalFields,
    announce?: OutboxItem,
  ) {
    const finished = withTaskFinished(statement, { id, from: OPEN, attempt, ...terminal });
    if (!announce)
      return (await runStatement(ds.manager, finished.selectFrom('task_finished').selectAll()))[0];
    const announced = withSteps(
      finished,
      withOutboxRow,
      announce,
      anyRowIn(finished, 'task_finished'),
    );
    return (
      await runStatement(
        ds.manager,
        announced
          .selectFrom('task_finished')
          .selectAll('task_finished')
          .select((eb) => eb.selectFrom('outbox_row').select('outbox_row.id').as('outbox_id')),
      )
    )[0];
  }
  const completed = (): TerminalFields => ({
    status: 'completed',
    fields: { outputs: ['u'], outputKeys: ['k'], timings },
  });

  it('scopes reads by account and hides malformed ids', async () => {
    const t = newTask();
    const createdAt = await insertTask(t);
    expect(createdAt).toBeInstanceOf(Date);
    expect((await tasks.findOwnedTask(t.accountId, t.id))?.status).toBe('created');
    expect(await tasks.findOwnedTask(randomUUID(), t.id)).toBeUndefined();
    expect(await tasks.findOwnedTask(t.accountId, 'not-a-uuid')).toBeUndefined();
  });

  it('lets only the latest attempt finish, once', async () => {
    const t = newTask();
    await insertTask(t);
    const first = await tasks.claimForRun(t.id, OPEN);
    expect(first).toMatchObject({ status: 'processing', attempt: 1 });
    const second = await tasks.claimForRun(t.id, OPEN); // a stalled run picked up again
    expect(second?.attempt).toBe(2);
    expect(await finish(t.id, 1, completed())).toBeUndefined();
    expect(await finish(t.id, 2, completed())).toMatchObject({ status: 'completed', code: 0 });
    expect(await finish(t.id, 2, completed())).toBeUndefined();
    expect(
      await finish(t.id, null, {
        status: 'failed',
        fields: { code: 5000, error: 'x', timings: null },
      }),
    ).toBeUndefined();
    expect(await tasks.claimForRun(t.id, OPEN)).toBeUndefined();
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

  it('writes the task and its outbox row only when the gate holds (the reservation was made)', async () => {
    const refused = newTask();
    expect(await create(refused, false, runJob(refused.id))).toBeUndefined();
    expect(await tasks.findOwnedTask(refused.accountId, refused.id)).toBeUndefined();
    expect(await outboxRowsFor(`task-${refused.id}`)).toBe(0);

    const t = newTask({ idempotencyKey: 'k1', requestHash: 'h' });
    const created = await create(t, true, runJob(t.id));
    expect(created?.created_at).toBeInstanceOf(Date);
    expect(await outboxRowsFor(`task-${t.id}`)).toBe(1);
    expect(await tasks.findOwnedTask(t.accountId, t.id)).toMatchObject({
      status: 'created',
      input: { prompt: 'p' },
      priceUnits: 1000,
      idempotencyKey: 'k1',
    });
    await outbox.remove(ds.manager, created && 'id' in created ? [created.id as number] : []);
  });

  it('writes the job announcing a terminal state only when the write wins', async () => {
    const t = newTask();
    await insertTask(t);
    await tasks.claimForRun(t.id, OPEN);
    await tasks.claimForRun(t.id, OPEN);
    const settle = { jobName: 'settle-task', jobId: `settle-${t.id}`, payload: { v: 1 } };
    expect(await finish(t.id, 1, completed(), settle)).toBeUndefined();
    expect(await outboxRowsFor(settle.jobId)).toBe(0);
    const failed: TerminalFields = {
      status: 'failed',
      fields: { code: 5001, error: 'e', timings: null },
    };
    const won = await finish(t.id, 2, failed, settle);
    expect(won).toMatchObject({ status: 'failed', code: 5001, error: 'e', attempt: 2 });
    expect((await tasks.findOwnedTask(t.accountId, t.id))?.outputs).toEqual([]);
    expect(await outboxRowsFor(settle.jobId)).toBe(1);
    await outbox.remove(ds.manager, won && 'outbox_id' in won ? [won.outbox_id as number] : []);
  });

  it('deletes only from the state the caller saw', async () => {
    const t = newTask();
    await insertTask(t);
    expect(await tasks.markDeleted(ds.manager, t.accountId, t.id, 'processing')).toBe(false);
    expect(await tasks.markDeleted(ds.manager, randomUUID(), t.id, 'created')).toBe(false);
    expect(await tasks.markDeleted(ds.manager, t.accountId, t.id, 'created')).toBe(true);
    expect(await tasks.findOwnedTask(t.accountId, t.id)).toBeUndefined();
    expect(await tasks.claimForRun(t.id, OPEN)).toBeUndefined();
  });

  it('claims a task by rewriting its row in place: a heap-only update, no index entry (decision 0142)', async () => {
    const indexes: { def: string }[] = await ds.query(
      `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = 'tasks.tasks'::regclass`,
    );
    expect(indexes.length).toBeGreaterThan(0);
    // What a claim writes is named by no index, in its key or its predicate.
    for (const { def } of indexes) expect(def).not.toMatch(/\b(status|attempt|started_at)\b/);

    const t = newTask();
    const runner = ds.createQueryRunner();
    await runner.startTransaction();
    try {
      // A page with room for the claim's new version, as the page still receiving inserts nearly
      // always has; here made sure of for this transaction's own insert (rolled back with it).
      await runner.query(`ALTER TABLE tasks.tasks SET (fillfactor = 50)`);
      await runStatement(
        runner.manager,
        withTaskCreated(statement, t, sql<boolean>`true`)
          .selectFrom('task_created')
          .select('created_at'),
      );
      // This connection's counts not yet reported (earlier statements' too), before and after
      // the repository's own statement run on it.
      const counts = async () => {
        const [row] = (await runner.query(
          `SELECT n_tup_upd AS updated, n_tup_hot_upd AS hot
             FROM pg_stat_xact_user_tables WHERE relid = 'tasks.tasks'::regclass`,
        )) as { updated: string | number; hot: string | number }[];
        return { updated: Number(row.updated), hot: Number(row.hot) };
      };
      const before = await counts();
      const inTransaction = new TaskRepository({ manager: runner.manager } as DataSource);
      expect(await inTransaction.claimForRun(t.id, OPEN)).toMatchObject({ attempt: 1 });
      const after = await counts();
      expect({ updated: after.updated - before.updated, hot: after.hot - before.hot }).toEqual({
        updated: 1,
        hot: 1,
      });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('keeps an open task one with neither finished_at nor deleted_at, through every write', async () => {
    const openByColumns = async (ids: string[]) =>
      (
        (await ds.query(
          `SELECT id FROM tasks.tasks
            WHERE id = ANY($1) AND finished_at IS NULL AND deleted_at IS NULL ORDER BY id`,
          [ids],
        )) as { id: string }[]
      ).map((r) => r.id);
    const [waiting, running, ended, failed, deleted, deletedAfterEnd] = Array.from(
      { length: 6 },
      () => newTask(),
    );
    const all = [waiting, running, ended, failed, deleted, deletedAfterEnd];
    for (const t of all) await insertTask(t);
    for (const t of [running, ended, failed, deletedAfterEnd]) await tasks.claimForRun(t.id, OPEN);
    await finish(ended.id, 1, completed());
    await finish(deletedAfterEnd.id, 1, completed());
    await finish(failed.id, null, {
      status: 'failed',
      fields: { code: 5004, error: 'time limit', timings: null },
    });
    expect(await tasks.markDeleted(ds.manager, deleted.accountId, deleted.id, 'created')).toBe(
      true,
    );
    expect(
      await tasks.markDeleted(
        ds.manager,
        deletedAfterEnd.accountId,
        deletedAfterEnd.id,
        'completed',
      ),
    ).toBe(true);
    expect(await openByColumns(all.map((t) => t.id))).toEqual([waiting.id, running.id].sort());
    // The estimate's predicate: a completed run has code 0, a failed one has not.
    const codes = (await ds.query(`SELECT id, code FROM tasks.tasks WHERE id = ANY($1)`, [
      [ended.id, failed.id],
    ])) as { id: string; code: number }[];
    expect(Object.fromEntries(codes.map((r) => [r.id, r.code]))).toEqual({
      [ended.id]: 0,
      [failed.id]: 5004,
    });
  });

  it('reports recent run durations of one model and channel', async () => {
    const model = `m/${randomUUID()}/x`;
    for (let i = 0; i < 2; i++) {
      const t = newTask({ model });
      await insertTask(t);
      await tasks.claimForRun(t.id, OPEN);
      await finish(t.id, 1, {
        status: 'completed',
        fields: { outputs: [], outputKeys: [], timings },
      });
    }
    const seconds = await tasks.recentRunSeconds(model, 'stable', 10);
    expect(seconds).toHaveLength(2);
    expect(seconds.every((s) => s >= 0 && s < 5)).toBe(true);
    expect(await tasks.recentRunSeconds(model, 'economy', 10)).toEqual([]);
  });

  it('finds open tasks stuck past their time limit', async () => {
    const t = newTask({ timeLimitMs: 1 });
    await insertTask(t);
    await ds.query(
      `UPDATE tasks.tasks SET created_at = now() - interval '1 minute' WHERE id = $1`,
      [t.id],
    );
    expect((await tasks.findStuck(OPEN, 0, 1000)).map((s) => s.id)).toContain(t.id);
    expect((await tasks.findStuck(['processing'], 0, 1000)).map((s) => s.id)).not.toContain(t.id);
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
