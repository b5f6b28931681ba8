import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BuiltPlatform, startBuiltPlatform } from './built-platform.util';
import { deleteQueuePrefix } from './redis-cleanup.util';
import type { RedisTestTopology } from './redis-topology.util';
import { createTestDatabase, dropTestDatabase, testQueuePrefix } from './test-database.util';
import { closedPort } from './webhook-receiver.fake';

export interface LocalPlatform {
  /** `http://127.0.0.1:<port>` of the gateway. */
  gateway: string;
  /** `http://127.0.0.1:<port>` of any app it started. */
  url(app: string): string;
  /** Its QUEUE_PREFIX (of every BullMQ key and pub/sub channel). */
  queuePrefix: string;
  /** This platform's own scratch directory (local-disk storage lives under it). */
  dir: string;
  /** The admin API's token (`ADMIN_TOKEN`). */
  adminToken: string;
  /** Its own database (`DATABASE_URL`), to look at rows the API does not show. */
  databaseUrl: string;
  /** `DATABASE_TLS_CA` when the database is one of the test's own that asks for TLS. */
  databaseTlsCa?: string;
  /** A new account with `balance` and one API key, through the admin API: the key. */
  accountWithKey(balance?: number): Promise<string>;
  /** Stops the apps, then removes the database, the queue keys and the directory. */
  stop(): Promise<void>;
}

export interface LocalPlatformOptions {
  /** The gateway's port, chosen beforehand (e.g. for a CORS origin); a free one otherwise. */
  gatewayPort?: number;
  /** Which built apps run; the gateway first. Default: gateway and task-worker. */
  apps?: readonly string[];
  /** Redis servers of the test's own (Sentinel, Cluster) instead of the machine's `REDIS_URL`. */
  redis?: RedisTestTopology;
  /** A migrated database of the test's own (e.g. over TLS), used as it is: neither created nor dropped. */
  database?: { url: string; tlsCa?: string };
}

/**
 * The built gateway and task-worker (or `options.apps`) as a user runs them
 * on one machine: local-disk storage, a database and queue prefix of this
 * suite's own, an admin token. `env` adds to (or overrides) that configuration.
 */
export async function startLocalPlatform(
  suite: string,
  env: NodeJS.ProcessEnv = {},
  options: LocalPlatformOptions = {},
): Promise<LocalPlatform> {
  const { redis, apps = ['gateway', 'task-worker'] } = options;
  const dir = mkdtempSync(join(tmpdir(), `genhub-${suite}-`));
  const prefix = redis ? redis.queuePrefix(suite) : testQueuePrefix(suite);
  const adminToken = `${suite}-test-admin-token`;
  const port = options.gatewayPort ?? (await closedPort());
  const gateway = `http://127.0.0.1:${port}`;
  let db: { url: string; name?: string } | undefined;
  let platform: BuiltPlatform | undefined;
  const stop = async () => {
    await platform?.stop();
    await deleteQueuePrefix(redis?.config(prefix) ?? (process.env.REDIS_URL as string), prefix);
    if (db?.name) await dropTestDatabase(db.name);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    db = options.database ?? (await createTestDatabase(suite));
    // One Redis topology: the test's own servers replace the machine's REDIS_URL.
    const { REDIS_URL, ...inherited } = process.env;
    platform = await startBuiltPlatform(
      apps,
      suite,
      {
        ...inherited,
        ...(redis ? redis.env : { REDIS_URL }),
        DATABASE_URL: db.url,
        ...(options.database?.tlsCa ? { DATABASE_TLS_CA: options.database.tlsCa } : {}),
        QUEUE_PREFIX: prefix,
        ADMIN_TOKEN: adminToken,
        API_KEY_PEPPER: `${suite}-test-pepper`,
        STORAGE_DIR: join(dir, 'objects'),
        PUBLIC_BASE_URL: gateway,
        LOG_LEVEL: 'silent',
        SHUTDOWN_GRACE_MS: '2000',
        ...env,
      },
      { gateway: port },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const post = async (path: string, body: string) =>
    (await (await fetch(`${gateway}${path}`, { method: 'POST', headers: admin, body })).json()) as {
      id: string;
      key: string;
    };
  const started = platform;
  return {
    gateway,
    url: (app) => started.url(app),
    queuePrefix: prefix,
    dir,
    adminToken,
    databaseUrl: (db as { url: string }).url,
    databaseTlsCa: options.database?.tlsCa,
    accountWithKey: async (balance = 10) => {
      const account = await post('/admin/v1/accounts', JSON.stringify({ balance }));
      return (await post(`/admin/v1/accounts/${account.id}/api-keys`, '{}')).key;
    },
    stop,
  };
}
