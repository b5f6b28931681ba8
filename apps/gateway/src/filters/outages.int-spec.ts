import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import {
  FairStage,
  fairStageOn,
  jobIdFor,
  JobName,
  QueueName,
  redisConnection,
} from '@genhub/queue';
import { sleep, startTcpProxy, TcpProxy } from '@genhub/testing';
import {
  admin,
  call,
  JsonResponse,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

const DATABASE_URL = process.env.DATABASE_URL as string;
const REDIS_URL = process.env.REDIS_URL as string;

/**
 * Outages without touching the shared servers: the gateway reaches PostgreSQL
 * and Redis through TCP proxies that the test cuts and restores (decision 0022).
 */
describe('gateway under PostgreSQL and Redis outages', () => {
  let pg: TcpProxy;
  let redis: TcpProxy;
  let gw: RunningGateway;
  let tasks: Queue;
  /** The fair stage, where the gateway's relay hands run jobs (no task-worker takes them here). */
  let stage: FairStage;
  let accountId: string;
  let key: string;
  let freshKey: string;
  let taskId: string;

  beforeAll(async () => {
    const pgUrl = new URL(DATABASE_URL);
    const redisUrl = new URL(REDIS_URL);
    pg = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
    redis = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    gw = await startGateway({
      DATABASE_URL: pg.via(DATABASE_URL),
      REDIS_URL: redis.via(REDIS_URL),
    });
    // The test's own view of the queue goes straight to Redis, not through the proxy.
    tasks = new Queue(QueueName.Tasks, {
      connection: redisConnection(REDIS_URL),
      prefix: process.env.QUEUE_PREFIX,
    });
    stage = fairStageOn(tasks, process.env.QUEUE_PREFIX as string, 60_000);
    const account = await call(`${gw.url}/admin/v1/accounts`, {
      method: 'POST',
      headers: admin(),
      body: { balance: 10 },
    });
    accountId = (account.body as { id: string }).id;
    const newKey = async () =>
      (
        (
          await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
            method: 'POST',
            headers: admin(),
          })
        ).body as { key: string }
      ).key;
    key = await newKey();
    freshKey = await newKey();
  }, 30_000);

  afterAll(async () => {
    pg?.restore();
    redis?.restore();
    await gw?.close();
    await tasks?.close();
    await Promise.all([pg?.close(), redis?.close()]);
  });

  const auth = (k = key) => ({ authorization: `Bearer ${k}` });
  const submit = (k = key, headers: Record<string, string> = {}) =>
    call(`${gw.url}/v1/local/simulator/test`, {
      method: 'POST',
      headers: { ...auth(k), ...headers },
      body: { prompt: 'outage' },
    });

  /** The public calls an outage must answer, each with its response family. */
  const requests: [string, () => Promise<JsonResponse>, 'v1' | 'v3'][] = [
    ['submit', () => submit(), 'v1'],
    ['poll', () => call(`${gw.url}/v1/requests/${taskId}`, { headers: auth() }), 'v1'],
    ['balance', () => call(`${gw.url}/v1/balance`, { headers: auth() }), 'v1'],
    ['billings', () => call(`${gw.url}/api/v3/billings`, { headers: auth() }), 'v3'],
    ['usage', () => call(`${gw.url}/api/v3/usage`, { headers: auth() }), 'v3'],
    ['submit, key not cached', () => submit(freshKey), 'v1'],
  ];

  it('PostgreSQL down: every endpoint answers 503 in under a second; all recover by themselves', async () => {
    const first = await submit();
    expect(first.status).toBe(200);
    taskId = (first.body as { id: string }).id;
    for (const [name, request] of requests.slice(0, -1))
      expect([name, (await request()).status]).toEqual([name, 200]);

    pg.cut();
    for (const [name, request, family] of requests) {
      const started = Date.now();
      const response = await request();
      const elapsed = Date.now() - started;
      expect([name, response.status]).toEqual([name, 503]);
      expect(elapsed).toBeLessThan(1000);
      const message = 'Service temporarily unavailable, please retry';
      expect(response.body).toEqual(
        family === 'v1' ? { code: 503, error: message } : { code: 503, message, data: null },
      );
    }
    // The models list needs no database: it keeps answering.
    expect((await call(`${gw.url}/api/v3/models`, { headers: auth() })).status).toBe(200);
    const ready = await call(`${gw.url}/ready`);
    expect(ready.status).toBe(503);

    pg.restore();
    for (const [name, request] of requests)
      expect([name, (await request()).status]).toEqual([name, 200]);
    expect((await call(`${gw.url}/ready`)).status).toBe(200);
  }, 30_000);

  it('Redis down: the key cache is off, so a change whose notice cannot arrive applies at once (decision 0123)', async () => {
    const issued = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      method: 'POST',
      headers: admin(),
    });
    const { id: keyId, key: revokedKey } = issued.body as { id: string; key: string };
    const balance = () => call(`${gw.url}/v1/balance`, { headers: auth(revokedKey) });
    // Before any Redis cut in this file: the gateway's subscription has been up since it started.
    expect((await balance()).status).toBe(200);
    // Revoked behind the gateway's back (no notice, as from a replica whose publish
    // was lost): while Redis is up the cached look-up still answers, as designed.
    const db = new DataSource(dataSourceOptions({ url: DATABASE_URL }));
    await db.initialize();
    try {
      await db.query(`UPDATE accounts.api_keys SET revoked_at = now() WHERE id = $1`, [keyId]);
      expect((await balance()).status).toBe(200);

      redis.cut();
      // The subscription is gone, so is the cache: the key is read again and refused.
      let refused = await balance();
      for (let i = 0; i < 20 && refused.status !== 401; i++) {
        await sleep(50);
        refused = await balance();
      }
      expect([refused.status, refused.body]).toEqual([
        401,
        { code: 401, error: 'Invalid or revoked API key' },
      ]);
      expect((await balance()).status).toBe(401);
    } finally {
      redis.restore();
      await db.destroy();
    }
    expect((await call(`${gw.url}/v1/balance`, { headers: auth() })).status).toBe(200);
  }, 30_000);

  it('Redis down: submit still answers at once (the outbox holds the job), which is staged when Redis is back', async () => {
    redis.cut();
    const started = Date.now();
    const response = await submit(key, { 'idempotency-key': `redis-down-${accountId}` });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(response.status).toBe(200);
    const id = (response.body as { id: string }).id;
    await sleep(500);
    expect(await tasks.getJob(jobIdFor(JobName.RunTask, id))).toBeUndefined();
    expect(await stage.holds(id)).toBe(false);
    // Polling and the balance need only PostgreSQL.
    const poll = await call(`${gw.url}/v1/requests/${id}`, { headers: auth() });
    expect([poll.status, poll.body]).toEqual([200, { id, status: 'processing' }]);
    expect((await call(`${gw.url}/v1/balance`, { headers: auth() })).status).toBe(200);
    expect((await call(`${gw.url}/ready`)).status).toBe(503);

    redis.restore();
    // The outbox row handed over: the task waits in the fair stage (decision 0133).
    let staged = await stage.holds(id);
    for (let i = 0; i < 200 && !staged; i++) {
      await sleep(50);
      staged = await stage.holds(id);
    }
    expect(staged).toBe(true);
    expect((await call(`${gw.url}/ready`)).status).toBe(200);
  }, 30_000);

  it('Redis down from the start: sync=true answers 503 at once and charges nothing; it works once Redis is back', async () => {
    redis.cut();
    const late = await startGateway({
      DATABASE_URL: pg.via(DATABASE_URL),
      REDIS_URL: redis.via(REDIS_URL),
      SYNC_TIMEOUT_MS: '1000',
    });
    try {
      const balance = async () =>
        (await call(`${late.url}/v1/balance`, { headers: auth() })).body as { balance: number };
      const before = await balance();
      const syncSubmit = () =>
        call(`${late.url}/v1/local/simulator/test?sync=true`, {
          method: 'POST',
          headers: auth(),
          body: { prompt: 'sync while down' },
        });
      const started = Date.now();
      const refused = await syncSubmit();
      expect(Date.now() - started).toBeLessThan(1000);
      expect([refused.status, refused.body]).toEqual([
        503,
        { code: 503, error: 'Service temporarily unavailable, please retry' },
      ]);
      expect(await balance()).toEqual(before);

      redis.restore();
      // No task-worker here: the wait ends at SYNC_TIMEOUT_MS with the processing shape.
      let answer = await syncSubmit();
      for (let i = 0; i < 20 && answer.status !== 200; i++) {
        await sleep(100);
        answer = await syncSubmit();
      }
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id: expect.any(String), status: 'processing' });
    } finally {
      redis.restore();
      await late.close();
    }
  }, 30_000);
});
