import { Client } from 'pg';
import {
  allReady,
  deliveries,
  itRunsThePlatform,
  type PlatformUnderTest,
  redisCli,
  type RedisTestSentinel,
  sleep,
  startPlatformOn,
  startRedisSentinel,
  submitTask,
  until,
  untilTerminal,
} from '@genhub/testing';

/**
 * The four built apps on a primary, a replica and three Sentinels of this
 * test's own (REDIS_SENTINELS, REDIS_SENTINEL_MASTER): they ask the Sentinels
 * for the primary, and after a crash of the primary reconnect to the replica
 * the Sentinels promote, losing no accepted task (issue 24).
 */
describe('on Redis Sentinel', () => {
  let sentinel: RedisTestSentinel;
  let run: PlatformUnderTest;

  beforeAll(async () => {
    sentinel = await startRedisSentinel(1);
    run = await startPlatformOn(sentinel, 'rsentinel');
  }, 120_000);

  afterAll(async () => {
    await run?.stop();
    await sentinel?.stop();
  });

  it('starts every app ready, on the primary the Sentinels name', async () => {
    expect(await allReady(run)).toBe(true);
    const keys = await redisCli(
      await sentinel.primaryPort(),
      '--scan',
      '--pattern',
      `${run.platform.queuePrefix}:*`,
    );
    expect(keys).toContain(`${run.platform.queuePrefix}:tasks:meta`);
  });

  itRunsThePlatform(() => run);

  it('loses no accepted task when the primary is SIGKILLed under load; the apps follow the promoted replica', async () => {
    const accepted: { id: string; at: number }[] = [];
    let refused = 0;
    let stop = false;
    // ~15 submits a second for the whole run, tasks of 0–1 s, all with a webhook.
    const load = (async () => {
      const inFlight: Promise<void>[] = [];
      for (let i = 0; !stop; i++) {
        inFlight.push(
          submitTask(run, { duration_ms: (i * 97) % 1000 })
            .then(({ status, body }) => {
              if (status === 200) accepted.push({ id: body.id, at: Date.now() });
              else refused++;
            })
            .catch(() => {
              refused++;
            }),
        );
        await sleep(65);
      }
      await Promise.all(inFlight);
    })();
    await sleep(2000);
    const before = await sentinel.primaryPort();
    const killedAt = Date.now();
    const promoted = await sentinel.killPrimary();
    const promotedAt = Date.now();
    await sleep(3000);
    stop = true;
    await load;

    expect(promoted).not.toBe(before);
    // Submits go on while Redis is away: the outbox holds them.
    const duringFailover = accepted.filter((t) => t.at > killedAt && t.at < promotedAt);
    expect(duringFailover.length).toBeGreaterThan(0);
    expect(refused).toBe(0);

    const results = await untilTerminal(
      run,
      accepted.map((t) => t.id),
      90_000,
    );
    expect([...results.values()].filter((t) => t.status !== 'completed')).toEqual([]);
    // Deliveries trail the terminal write. They live in PostgreSQL (decision 0141): a wake-up lost
    // with the primary only leaves them to the dispatcher's poll.
    const undelivered = () => {
      const delivered = deliveries(run.receiver);
      return accepted.filter((t) => !delivered.has(t.id)).map((t) => t.id);
    };
    await until(async () => undelivered().length === 0, 60_000).catch(() => undefined);
    expect(undelivered()).toEqual([]);

    // Every outbox row went once its job was safe: on a replica while there was one, then
    // straight after the failover (no replica left to wait for). None waits for the poll forever.
    const db = new Client({ connectionString: run.platform.databaseUrl });
    await db.connect();
    try {
      const left = async () =>
        Number((await db.query('SELECT count(*) AS n FROM tasks.outbox')).rows[0].n);
      await until(async () => (await left()) === 0, 30_000).catch(() => undefined);
      expect(await left()).toBe(0);
    } finally {
      await db.end();
    }

    // Every app is ready again, and its work now lives on the promoted replica: the fair stage
    // the task-workers take from, and the queues' own keys.
    await until(() => allReady(run), 30_000);
    const keys = await redisCli(promoted, '--scan', '--pattern', `${run.platform.queuePrefix}:*`);
    expect(keys).toContain(`${run.platform.queuePrefix}:fair:clock`);
    expect(keys).toContain(`${run.platform.queuePrefix}:webhooks:meta`);
    // The gateways' subscriptions moved too: a sync wait is woken by its notice.
    const started = Date.now();
    const sync = await submitTask(
      run,
      { duration_ms: 100 },
      { sync: true, webhook: false, timeoutMs: 30_000 },
    );
    expect(sync.body.status).toBe('completed');
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 180_000);
});
