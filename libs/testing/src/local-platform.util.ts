import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BuiltPlatform, startBuiltPlatform } from './built-platform.util';
import { deleteQueuePrefix } from './redis-cleanup.util';
import { createTestDatabase, dropTestDatabase, testQueuePrefix } from './test-database.util';
import { closedPort } from './webhook-receiver.util';

export interface LocalPlatform {
  /** `http://127.0.0.1:<port>` of the gateway. */
  gateway: string;
  /** This platform's own scratch directory (local-disk storage lives under it). */
  dir: string;
  /** The admin API's token (`ADMIN_TOKEN`). */
  adminToken: string;
  /** A new account with `balance` and one API key, through the admin API: the key. */
  accountWithKey(balance?: number): Promise<string>;
  /** Stops the apps, then removes the database, the queue keys and the directory. */
  stop(): Promise<void>;
}

/**
 * The built gateway and task-worker as a user runs them on one machine:
 * local-disk storage, a database and queue prefix of this suite's own, an
 * admin token. `env` adds to (or overrides) that configuration.
 */
export async function startLocalPlatform(
  suite: string,
  env: NodeJS.ProcessEnv = {},
  gatewayPort?: number,
): Promise<LocalPlatform> {
  const dir = mkdtempSync(join(tmpdir(), `genhub-${suite}-`));
  const prefix = testQueuePrefix(suite);
  const adminToken = `${suite}-test-admin-token`;
  const port = gatewayPort ?? (await closedPort());
  const gateway = `http://127.0.0.1:${port}`;
  let db: { url: string; name: string } | undefined;
  let platform: BuiltPlatform | undefined;
  const stop = async () => {
    await platform?.stop();
    await deleteQueuePrefix(process.env.REDIS_URL as string, prefix);
    if (db) await dropTestDatabase(db.name);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    db = await createTestDatabase(suite);
    platform = await startBuiltPlatform(
      ['gateway', 'task-worker'],
      suite,
      {
        ...process.env,
        DATABASE_URL: db.url,
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
  return {
    gateway,
    dir,
    adminToken,
    accountWithKey: async (balance = 10) => {
      const account = await post('/admin/v1/accounts', JSON.stringify({ balance }));
      return (await post(`/admin/v1/accounts/${account.id}/api-keys`, '{}')).key;
    },
    stop,
  };
}
