import {
  allReady,
  deliveries,
  itHoldsOverTls,
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
 * test's own that all speak TLS only (replication too), the data nodes
 * requiring an ACL user and the Sentinels a password: REDIS_SENTINELS with
 * REDIS_TLS, REDIS_TLS_CA, REDIS_USERNAME, REDIS_PASSWORD and REDIS_SENTINEL_PASSWORD. The Sentinels and the data nodes are
 * reached over TLS, and so is the replica the Sentinels promote (issue 40).
 */
describe('on Redis Sentinel over TLS', () => {
  let sentinel: RedisTestSentinel;
  let run: PlatformUnderTest;

  beforeAll(async () => {
    sentinel = await startRedisSentinel(1, { tls: true });
    run = await startPlatformOn(sentinel, 'rtlssentinel');
  }, 120_000);

  afterAll(async () => {
    await run?.stop();
    await sentinel?.stop();
  }, 60_000);

  it('starts every app ready, on the primary the Sentinels name, over TLS as the ACL user', async () => {
    expect(await allReady(run)).toBe(true);
    const primary = await sentinel.primaryPort();
    expect(
      await sentinel.cli(primary, '--scan', '--pattern', `${run.platform.queuePrefix}:*`),
    ).toContain(`${run.platform.queuePrefix}:tasks:meta`);
    const clients = await sentinel.cli(primary, 'CLIENT', 'LIST');
    expect(clients).toMatch(/ user=genhub-app /);
    expect(clients).not.toMatch(/ user=default /); // The Sentinels want their own password (REDIS_SENTINEL_PASSWORD), over TLS too.
    expect(sentinel.env.REDIS_SENTINEL_PASSWORD).toBeDefined();
    const anonymous = await redisCli(
      sentinel.sentinels[0],
      '--tls',
      '--cacert',
      sentinel.tls?.caFile as string,
      'PING',
    );
    expect(anonymous).toMatch(/^NOAUTH/);
  });

  itRunsThePlatform(() => run);

  itHoldsOverTls(() => ({ run, redis: sentinel }));

  // Last: it leaves the set-up with one data node.
  it('follows a failover over TLS: the primary SIGKILLed under load, every accepted task completes and is delivered', async () => {
    const accepted: string[] = [];
    let refused = 0;
    let stop = false;
    // ~8 submits a second, tasks of 0–0.5 s, all with a webhook.
    const load = (async () => {
      const inFlight: Promise<void>[] = [];
      while (!stop) {
        inFlight.push(
          submitTask(run, { duration_ms: (accepted.length * 61) % 500 })
            .then(({ status, body }) => {
              if (status === 200) accepted.push(body.id);
              else refused++;
            })
            .catch(() => {
              refused++;
            }),
        );
        await sleep(120);
      }
      await Promise.all(inFlight);
    })();
    await sleep(1000);
    const before = await sentinel.primaryPort();
    const promoted = await sentinel.killPrimary();
    await sleep(2000);
    stop = true;
    await load;

    expect(promoted).not.toBe(before);
    expect(refused).toBe(0);
    expect(accepted.length).toBeGreaterThan(10);
    const results = await untilTerminal(run, accepted, 90_000);
    expect([...results.values()].filter((t) => t.status !== 'completed')).toEqual([]);
    const undelivered = () => accepted.filter((id) => !deliveries(run.receiver).has(id));
    await until(async () => undelivered().length === 0, 60_000).catch(() => undefined);
    expect(undelivered()).toEqual([]);

    // Every app is back, on the promoted replica, over TLS; a sync wait is woken by its notice.
    await until(() => allReady(run), 30_000);
    expect(await sentinel.cli(promoted, 'CLIENT', 'LIST')).toMatch(/ user=genhub-app /);
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
