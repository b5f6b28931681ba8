import {
  allReady,
  itHoldsOverTls,
  itRunsThePlatform,
  type PlatformUnderTest,
  type RedisTestCluster,
  startPlatformOn,
  startRedisCluster,
} from '@genhub/testing';

/**
 * The four built apps on a three-primary Redis Cluster of this test's own
 * that speaks TLS only, on its cluster bus too, and requires an ACL user:
 * REDIS_CLUSTER_NODES with REDIS_TLS, REDIS_TLS_CA, REDIS_USERNAME and
 * REDIS_PASSWORD; every node connection and redirection checks the certificate (issue 40).
 */
describe('on a Redis Cluster over TLS', () => {
  let cluster: RedisTestCluster;
  let run: PlatformUnderTest;

  beforeAll(async () => {
    cluster = await startRedisCluster(3, { tls: true });
    run = await startPlatformOn(cluster, 'rtlscluster');
  }, 120_000);

  afterAll(async () => {
    await run?.stop();
    await cluster?.stop();
  }, 60_000);

  it('starts every app ready, connected to every primary over TLS as the ACL user', async () => {
    expect(await allReady(run)).toBe(true);
    expect(await cluster.cli(cluster.ports[0], 'CONFIG', 'GET', 'tls-cluster')).toBe(
      'tls-cluster\nyes',
    );
    for (const port of cluster.ports) {
      const clients = await cluster.cli(port, 'CLIENT', 'LIST');
      expect(clients).toMatch(/ user=genhub-app /);
      expect(clients).not.toMatch(/ user=default /);
    }
  });

  itRunsThePlatform(() => run);

  itHoldsOverTls(() => ({ run, redis: cluster }));
});
