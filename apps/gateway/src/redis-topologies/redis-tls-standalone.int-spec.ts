import {
  allReady,
  itHoldsOverTls,
  itRunsThePlatform,
  type PlatformUnderTest,
  type RedisTestStandalone,
  startExpectingFailure,
  startPlatformOn,
  startRedisStandalone,
} from '@genhub/testing';

/**
 * The four built apps on one Redis server of this test's own that speaks TLS
 * only and requires an ACL user, as managed Redis does: a `rediss://`
 * REDIS_URL with the user and password, the test's CA in REDIS_TLS_CA
 * (issue 40).
 */
describe('on a standalone Redis over TLS (rediss://)', () => {
  let redis: RedisTestStandalone;
  let run: PlatformUnderTest;

  beforeAll(async () => {
    redis = await startRedisStandalone({ tls: true });
    run = await startPlatformOn(redis, 'rtls');
  }, 120_000);

  afterAll(async () => {
    await run?.stop();
    await redis?.stop();
  }, 60_000);

  it('starts every app ready over TLS, as the ACL user', async () => {
    expect(redis.env.REDIS_URL).toMatch(/^rediss:\/\/genhub-app:[^@]+@127\.0\.0\.1:\d+$/);
    expect(await allReady(run)).toBe(true);
    const clients = await redis.cli(redis.port, 'CLIENT', 'LIST');
    expect(clients).toMatch(/ user=genhub-app /);
    expect(clients).not.toMatch(/ user=default /);
  });

  itRunsThePlatform(() => run);

  itHoldsOverTls(() => ({ run, redis }));

  it('checks the host name: a certificate that does not name the address stops the start', async () => {
    // The server also listens on 127.0.0.2, which its certificate does not name.
    const { code, lines } = await startExpectingFailure('gateway', run, {
      ...redis.env,
      REDIS_URL: (redis.env.REDIS_URL as string).replace('@127.0.0.1:', '@127.0.0.2:'),
    });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^gateway: failed to start: Redis: TLS certificate of 127\.0\.0\.2:\d+ refused: .*127\.0\.0\.2.*\(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    );
  }, 60_000);
});
