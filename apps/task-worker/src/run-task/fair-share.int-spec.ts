import Redis from 'ioredis';
import { Client } from 'pg';
import { startLocalPlatform, type LocalPlatform, until } from '@genhub/testing';

const SIMULATOR = 'local/simulator/test';
/** The backlog's run time: one slot's run, the bound on a newcomer's wait. */
const RUN_MS = 250;
const SLOTS = 10;
const BACKLOG = 2000;

/**
 * Fair share between accounts (issue 36, decision 0133) on the built gateway
 * and task-worker with the real Redis and PostgreSQL: one account's
 * 2,000-task backlog never holds another account's task for longer than
 * one slot's run; the backlog keeps its submit order; its waiting tasks,
 * deleted, are released and never run; nothing runs twice.
 */
describe('fair share between accounts (built gateway + task-worker)', () => {
  let platform: LocalPlatform;
  let db: Client;
  let redis: Redis;

  beforeAll(async () => {
    platform = await startLocalPlatform(
      'fair-share',
      { TASK_CONCURRENCY: String(SLOTS) },
      // The billing app settles what a delete releases or captures.
      { apps: ['gateway', 'task-worker', 'billing'] },
    );
    db = new Client({ connectionString: platform.databaseUrl });
    await db.connect();
    redis = new Redis(process.env.REDIS_URL as string);
  }, 120_000);
  afterAll(async () => {
    redis?.disconnect();
    await db?.end();
    await platform?.stop();
  }, 30_000);

  async function submit(key: string, input: Record<string, unknown>, query = '') {
    const response = await fetch(`${platform.gateway}/v1/${SIMULATOR}${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'fair', ...input }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { id: string; status: string };
  }

  async function rows(ids: readonly string[]) {
    const { rows: found } = await db.query<{
      id: string;
      status: string;
      attempt: number;
      started_at: Date | null;
      state: string;
    }>(
      `SELECT t.id, t.status, t.attempt, t.started_at, r.state
         FROM tasks.tasks t JOIN billing.reservations r ON r.task_id = t.id
        WHERE t.id = ANY($1::uuid[]) ORDER BY t.started_at NULLS LAST`,
      [ids],
    );
    return found;
  }

  it('runs a quiet account’s task within one slot’s run behind a 2,000-task backlog, and releases the deleted backlog unrun', async () => {
    const [noisy, quiet] = await Promise.all([
      platform.accountWithKey(100),
      platform.accountWithKey(1),
    ]);
    const backlog: string[] = [];
    for (let i = 0; i < BACKLOG; i += 100) {
      const acks = await Promise.all(
        Array.from({ length: Math.min(100, BACKLOG - i) }, (_, j) =>
          submit(noisy, { duration_ms: RUN_MS, prompt: `noisy ${i + j}` }),
        ),
      );
      // In submit order within each batch: ids as acknowledged, batch after batch.
      backlog.push(...acks.map((a) => a.id));
    }
    const waiting = async () =>
      Number(
        (
          await db.query(
            `SELECT count(*) AS n FROM tasks.tasks WHERE id = ANY($1) AND status = 'created'`,
            [backlog],
          )
        ).rows[0].n,
      );
    expect(await waiting()).toBeGreaterThan(BACKLOG * 0.8);

    // The quiet account's one task: a synchronous wait, submit to completed.
    const started = Date.now();
    const response = await fetch(`${platform.gateway}/v1/${SIMULATOR}?sync=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${quiet}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'quiet', duration_ms: 0 }),
    });
    const tookMs = Date.now() - started;
    const answer = (await response.json()) as { data?: { status: string }; status?: string };
    expect(JSON.stringify(answer)).toContain('"completed"');
    expect(tookMs).toBeLessThan(RUN_MS + 500);

    // The rest of the backlog is deleted while it waits: released, never run.
    const { rows: stillWaiting } = await db.query<{ id: string }>(
      `SELECT id FROM tasks.tasks WHERE id = ANY($1) AND status = 'created'`,
      [backlog],
    );
    expect(stillWaiting.length).toBeGreaterThan(BACKLOG / 2);
    for (let i = 0; i < stillWaiting.length; i += 50)
      await Promise.all(
        stillWaiting.slice(i, i + 50).map(({ id }) =>
          fetch(`${platform.gateway}/api/v3/predictions/${id}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${noisy}` },
          }),
        ),
      );
    // Every task of the backlog ends: completed once, or deleted with its reservation released.
    const ended = await until(
      async () => {
        const found = await rows(backlog);
        return found.every((r) => ['completed', 'deleted'].includes(r.status) && r.state !== 'open')
          ? found
          : undefined;
      },
      { ms: 30_000, what: 'the backlog to end' },
    );
    const completed = ended.filter((r) => r.status === 'completed');
    const deleted = ended.filter((r) => r.status === 'deleted');
    expect(completed.length + deleted.length).toBe(BACKLOG);
    for (const r of completed) expect([r.attempt, r.state]).toEqual([1, 'captured']);
    // A task deleted while it waited never started, and was released; one that had started by
    // its delete (the backlog kept running meanwhile) was captured, as the interface says.
    const deletedUnrun = deleted.filter((r) => r.started_at === null);
    expect(deletedUnrun.length).toBeGreaterThan(BACKLOG / 2);
    for (const r of deletedUnrun) expect([r.attempt, r.state]).toEqual([0, 'released']);
    for (const r of deleted.filter((d) => d.started_at !== null))
      expect([r.attempt, r.state]).toEqual([1, 'captured']);
    // The backlog ran in submit order: by start time, no task of a batch of 100 (submitted in
    // parallel, so unordered within) ran before one of two batches earlier.
    const batchOf = new Map(backlog.map((id, i) => [id, Math.floor(i / 100)]));
    let latest = 0;
    for (const r of completed) {
      const batch = batchOf.get(r.id) as number;
      expect(batch).toBeGreaterThanOrEqual(latest - 1);
      latest = Math.max(latest, batch);
    }
    // The stage holds nothing more.
    expect(await redis.hlen(`${platform.queuePrefix}:fair:members`)).toBe(0);
    expect(await redis.zcard(`${platform.queuePrefix}:fair:ready`)).toBe(0);
  }, 180_000);
});
