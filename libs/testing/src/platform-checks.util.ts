import { Client } from 'pg';
import { postgresConnection } from '@genhub/config';
import { type LocalPlatform, startLocalPlatform } from './local-platform.util';
import type { RedisTestTopology } from './redis-topology.util';
import { until } from './wait-for.util';
import { WebhookReceiver } from './webhook-receiver.fake';

/** The four built apps, as the topology tests start them. */
export const ALL_APPS = ['gateway', 'task-worker', 'webhook-dispatcher', 'billing'] as const;

/** A platform under test, its caller's key and the receiver of its webhooks. */
export interface PlatformUnderTest {
  platform: LocalPlatform;
  key: string;
  receiver: WebhookReceiver;
  /** Stops the apps (removing their database and keys) and the receiver. */
  stop(): Promise<void>;
}

/**
 * The four built apps on the test's own Redis servers, a webhook receiver on
 * 127.0.0.1 they may call, and an account (balance 100) with its key.
 */
export async function startPlatformOn(
  redis: RedisTestTopology,
  suite: string,
): Promise<PlatformUnderTest> {
  const receiver = await WebhookReceiver.start();
  const platform = await startLocalPlatform(
    suite,
    // A sync wait that missed its notice would answer `processing` after 20 s.
    { ALLOW_PRIVATE_NETWORK_URLS: 'true', SYNC_TIMEOUT_MS: '20000' },
    { apps: ALL_APPS, redis },
  ).catch(async (error: unknown) => {
    await receiver.close();
    throw error;
  });
  return {
    platform,
    receiver,
    key: await platform.accountWithKey(100),
    stop: async () => {
      await platform.stop();
      await receiver.close();
    },
  };
}

interface TaskResult {
  id: string;
  status: string;
  code?: number;
  outputs?: string[];
}

const SIMULATOR = 'local/simulator/test';

/** Submits a simulator task (with a webhook to the receiver unless `webhook` is false). */
export async function submitTask(
  run: PlatformUnderTest,
  input: Record<string, unknown>,
  options: { sync?: boolean; webhook?: boolean; timeoutMs?: number } = {},
): Promise<{ status: number; body: TaskResult }> {
  const query = new URLSearchParams();
  if (options.webhook !== false) query.set('webhook', `${run.receiver.url}/hook`);
  if (options.sync) query.set('sync', 'true');
  const res = await fetch(`${run.platform.gateway}/v1/${SIMULATOR}?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${run.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'topology', ...input }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  return { status: res.status, body: (await res.json()) as TaskResult };
}

/** GET with the caller's key; the parsed answer. */
export async function getJson<T>(run: PlatformUnderTest, path: string): Promise<T> {
  const res = await fetch(`${run.platform.gateway}${path}`, {
    headers: { authorization: `Bearer ${run.key}` },
  });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** Polls each task until it is completed or failed; their results by id. */
export async function untilTerminal(
  run: PlatformUnderTest,
  ids: readonly string[],
  ms = 30_000,
): Promise<Map<string, TaskResult>> {
  const done = new Map<string, TaskResult>();
  await until(async () => {
    for (const id of ids.filter((id) => !done.has(id))) {
      const task = await getJson<TaskResult>(run, `/v1/requests/${id}`).catch(() => undefined);
      if (task && (task.status === 'completed' || task.status === 'failed')) done.set(id, task);
    }
    return done.size === ids.length;
  }, ms).catch(() => {
    throw new Error(`${ids.length - done.size} of ${ids.length} tasks not terminal after ${ms} ms`);
  });
  return done;
}

/** The webhook ids the receiver got, with how many deliveries each. */
export function deliveries(receiver: WebhookReceiver): Map<string, number> {
  const seen = new Map<string, number>();
  for (const request of receiver.requests) {
    const id = String(request.headers['webhook-id']);
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  return seen;
}

/** Every app's /ready answers 200 (its Redis and PostgreSQL connections work). */
export async function allReady(run: PlatformUnderTest): Promise<boolean> {
  const answers = await Promise.all(
    ALL_APPS.map((app) =>
      fetch(`${run.platform.url(app)}/ready`)
        .then((res) => res.status)
        .catch(() => 0),
    ),
  );
  return answers.every((status) => status === 200);
}

/**
 * What must hold on every Redis topology, as `it` blocks: the task lifecycle
 * (polled), signed webhooks, the sync wait (woken by a pub/sub notice), and a
 * delete while running settled through the billing queue: each of the three
 * queues and the notices at work.
 */
export function itRunsThePlatform(current: () => PlatformUnderTest): void {
  it('runs tasks to the end: polled, completed with outputs or failed with their code', async () => {
    const run = current();
    const submitted = await Promise.all([
      submitTask(run, { duration_ms: 200, num_outputs: 2 }),
      submitTask(run, { duration_ms: 50 }),
      submitTask(run, { fail_code: 5003 }),
    ]);
    expect(submitted.map((s) => [s.status, s.body.status])).toEqual([
      [200, 'created'],
      [200, 'created'],
      [200, 'created'],
    ]);
    const results = await untilTerminal(
      run,
      submitted.map((s) => s.body.id),
    );
    const [two, one, failed] = submitted.map((s) => results.get(s.body.id) as TaskResult);
    expect([two.status, two.outputs?.length, one.status, one.outputs?.length]).toEqual([
      'completed',
      2,
      'completed',
      1,
    ]);
    expect([failed.status, failed.code]).toEqual(['failed', 5003]);
    for (const url of [...(two.outputs ?? []), ...(one.outputs ?? [])])
      expect((await fetch(url)).status).toBe(200);
  }, 60_000);

  it('delivers each task’s webhook, signed, under the task id', async () => {
    const run = current();
    const { body } = await submitTask(run, { duration_ms: 100 });
    await untilTerminal(run, [body.id]);
    const delivered = await until(
      async () => run.receiver.requests.find((r) => r.headers['webhook-id'] === body.id),
      20_000,
    );
    expect(delivered.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(JSON.parse(delivered.body)).toMatchObject({ id: body.id, status: 'completed' });
  }, 60_000);

  it('answers a sync wait with the result as soon as the task ends (a pub/sub notice)', async () => {
    const started = Date.now();
    const { status, body } = await submitTask(
      current(),
      { duration_ms: 300 },
      { sync: true, webhook: false, timeoutMs: 30_000 },
    );
    expect([status, body.status, body.outputs?.length]).toEqual([200, 'completed', 1]);
    // SYNC_TIMEOUT_MS is 20 s: a missed notice would answer `processing` then.
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it('settles a task deleted while running through the billing queue: captured once', async () => {
    const run = current();
    const { body } = await submitTask(run, { duration_ms: 5000 }, { webhook: false });
    // Running for real: claimed (the public poll says `processing` for a queued task too,
    // the run claims its task as it starts).
    const db = new Client(postgresConnection(run.platform.databaseUrl, run.platform.databaseTlsCa));
    await db.connect();
    try {
      await until(async () => {
        const { rows } = await db.query(`SELECT status FROM tasks.tasks WHERE id = $1`, [body.id]);
        return rows[0]?.status === 'processing';
      }, 20_000);
    } finally {
      await db.end();
    }
    const res = await fetch(`${run.platform.gateway}/api/v3/predictions/${body.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${run.key}` },
    });
    expect(res.status).toBe(200);
    const usage = await until(async () => {
      const page = await getJson<{ data: { records: { task_id?: string; amount: number }[] } }>(
        run,
        '/api/v3/billings?type=usage&per_page=100',
      );
      const records = page.data.records.filter((r) => r.task_id === body.id);
      return records.length ? records : undefined;
    }, 20_000);
    expect(usage.map((r) => r.amount)).toEqual([-0.001]);
  }, 60_000);
}
