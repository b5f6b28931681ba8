import {
  allReady,
  itRunsThePlatform,
  type PlatformUnderTest,
  redisCli,
  type RedisTestCluster,
  startPlatformOn,
  startRedisCluster,
} from '@genhub/testing';

/**
 * The four built apps on a three-primary Redis Cluster of this test's own
 * (REDIS_CLUSTER_NODES, a hash-tagged QUEUE_PREFIX): BullMQ's queues, the
 * pub/sub notices and the locks all through ioredis `Cluster` (issue 24).
 */
describe('on a Redis Cluster', () => {
  let cluster: RedisTestCluster;
  let run: PlatformUnderTest;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    run = await startPlatformOn(cluster, 'rcluster');
  }, 120_000);

  afterAll(async () => {
    await run?.stop();
    await cluster?.stop();
  });

  it('starts every app ready on the cluster', async () => {
    expect(await allReady(run)).toBe(true);
  });

  itRunsThePlatform(() => run);

  it('keeps every key of the prefix in the one slot of its hash tag', async () => {
    const prefix = run.platform.queuePrefix;
    expect(prefix).toMatch(/^\{t-rcluster-[0-9a-f]+\}$/);
    const perNode = await Promise.all(
      cluster.ports.map(async (port) =>
        (await redisCli(port, '--scan', '--pattern', `${prefix}:*`)).split('\n').filter(Boolean),
      ),
    );
    const keys = perNode.flat();
    expect(keys.length).toBeGreaterThan(10);
    expect(perNode.filter((list) => list.length > 0)).toHaveLength(1);
    const slots = new Set(
      await Promise.all(
        keys.slice(0, 20).map((key) => redisCli(cluster.ports[0], 'CLUSTER', 'KEYSLOT', key)),
      ),
    );
    expect(slots.size).toBe(1);
    for (const queue of ['tasks', 'webhooks', 'billing'])
      expect(keys).toContain(`${prefix}:${queue}:meta`);
  });
});
