import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';
import { loadConfig, RedisConfig } from '@genhub/config';
import { PubSubService } from '@genhub/queue';
import { buildAppForTest } from './built-app.util';
import type { PlatformUnderTest } from './platform-checks.util';
import type { RedisTestTopology } from './redis-topology.util';
import { until } from './wait-for.util';
import { closedPort } from './webhook-receiver.fake';

/** How a built app ended that was expected not to start. */
export interface FailedStart {
  code: number | null;
  /** Its stderr, line by line. */
  lines: string[];
}

/**
 * Starts one built app on `run`'s database and queue prefix, with `run`'s
 * Redis settings overridden by `redisEnv`, and waits for it to exit (it is
 * killed after `ms` if it does not).
 */
export async function startExpectingFailure(
  app: string,
  run: PlatformUnderTest,
  redisEnv: Record<string, string>,
  ms = 30_000,
): Promise<FailedStart> {
  const build = buildAppForTest(app, `fail-${app}`);
  try {
    const { REDIS_URL: _machine, ...inherited } = process.env;
    const child = spawn(process.execPath, [build.entry()], {
      env: {
        ...inherited,
        ...redisEnv,
        DATABASE_URL: run.platform.databaseUrl,
        QUEUE_PREFIX: run.platform.queuePrefix,
        STORAGE_DIR: `${run.platform.dir}/objects`,
        PORT: String(await closedPort()),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const kill = setTimeout(() => child.kill('SIGKILL'), ms);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(kill);
    return { code, lines: stderr.trim().split('\n') };
  } finally {
    build.remove();
  }
}

/** A PING to the server at `port` with `options` (no user): its error, or undefined if it answered. */
async function pingError(port: number, options: RedisOptions): Promise<Error | undefined> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    ...options,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return error as Error;
  } finally {
    client.disconnect();
  }
}

/** A PING over a plain (not TLS) connection. */
const plainPing = (port: number) => pingError(port, { connectTimeout: 3000 });

/** A PING over TLS with the test CA but no ACL user. */
const anonymousPing = (redis: RedisTestTopology, port: number) =>
  pingError(port, {
    tls: { ca: readFileSync(redis.tls?.caFile as string) },
    enableReadyCheck: false, // its INFO would meet NOAUTH before the PING does
  });

/**
 * What must hold on every Redis topology over TLS, as `it` blocks: its
 * servers refuse plaintext (no plaintext port, a plain connection fails) and
 * a TLS connection without the ACL user; an app whose CA bundle does not
 * trust them stops at start-up with one line naming Redis and the certificate
 * problem, and the readiness check of one that meets such a certificate later names it.
 */
export function itHoldsOverTls(
  current: () => { run: PlatformUnderTest; redis: RedisTestTopology },
): void {
  it('refuses plaintext on every server, and the data nodes refuse a TLS client without the ACL user', async () => {
    const { redis } = current();
    const servers = redis.servers();
    expect(servers.length).toBeGreaterThan(0);
    for (const { port, dataNode } of servers) {
      expect((await plainPing(port))?.message).toMatch(/^(Connection is closed|read ECONNRESET)/);
      if (!dataNode) continue; // a Sentinel has no CONFIG; its password is checked by its spec
      expect(await redis.cli(port, 'CONFIG', 'GET', 'port')).toBe('port\n0');
      expect(await redis.cli(port, 'CONFIG', 'GET', 'tls-port')).toBe(`tls-port\n${port}`);
      expect((await anonymousPing(redis, port))?.message).toMatch(/^NOAUTH/);
    }
    // …while the same PING over TLS as the ACL user answers.
    for (const { port } of servers) expect(await redis.cli(port, 'PING')).toBe('PONG');
  }, 60_000);

  it('stops an app whose REDIS_TLS_CA does not trust the servers, with one line naming Redis and the certificate', async () => {
    const { run, redis } = current();
    const { code, lines } = await startExpectingFailure('gateway', run, {
      ...redis.env,
      REDIS_TLS_CA: redis.tls?.wrongCaFile as string,
    });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^gateway: failed to start: Redis: TLS certificate of 127\.0\.0\.1:\d+ refused: self[- ]signed certificate in certificate chain \(SELF_SIGNED_CERT_IN_CHAIN\); check REDIS_TLS_CA/,
    );
  }, 60_000);

  it('readiness names a refused certificate: the redis check fails with the certificate problem', async () => {
    const { run, redis } = current();
    // As after the servers' CA changed under a running app.
    const pubsub = new PubSubService(
      loadConfig(RedisConfig, {
        ...redis.env,
        REDIS_TLS_CA: redis.tls?.wrongCaFile as string,
        QUEUE_PREFIX: run.platform.queuePrefix,
      }),
    );
    try {
      let failure: Error | undefined;
      await until(async () => {
        failure = await pubsub.ping().then(
          () => undefined,
          (error: Error) => error,
        );
        return failure?.message.startsWith('Redis: TLS certificate') ?? false;
      }, 10_000).catch(() => undefined);
      expect(failure?.message).toMatch(
        /^Redis: TLS certificate of 127\.0\.0\.1:\d+ refused: self[- ]signed certificate in certificate chain \(SELF_SIGNED_CERT_IN_CHAIN\)/,
      );
    } finally {
      await pubsub.onApplicationShutdown();
    }
  }, 30_000);
}
