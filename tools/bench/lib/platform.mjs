// Runs the four apps as in production (built, separate processes) against the
// machine's PostgreSQL and Redis, on a fresh database and queue prefix.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { postgresOptions } from '../../lib/postgres.mjs';
import { root } from '../../start/lib/paths.mjs';
import { watchTerminalNotices } from './terminal-notices.mjs';

export const APPS = ['gateway', 'task-worker', 'webhook-dispatcher', 'billing'];
const SERVER_URL =
  process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function benchEnvironment(label) {
  const database = `genhub_bench_${label}`;
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return {
    database,
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `bench-${randomBytes(3).toString('hex')}`,
      ADMIN_TOKEN: `bench-admin-${randomBytes(12).toString('hex')}`,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      STORAGE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'genhub-bench-')),
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_NETWORK_URLS: 'true',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: 'http://127.0.0.1:3700',
    },
  };
}

/** Statements, in order, on the server's maintenance database (not the run's). */
async function onServer(...statements) {
  const admin = new pg.Client(postgresOptions(SERVER_URL, process.env.DATABASE_TLS_CA));
  await admin.connect();
  try {
    for (const sql of statements) await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export function recreateDatabase(database) {
  return onServer(
    `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`,
    `CREATE DATABASE "${database}"`,
  );
}

export function dropDatabase(database) {
  return onServer(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
}

/**
 * Flushes PostgreSQL's dirty buffers now, as the floor does before each of its
 * runs, so a checkpoint that the previous phases made due does not land in the
 * next measurement window.
 */
export function checkpoint() {
  return onServer('CHECKPOINT');
}

/** Deletes the run's queue keys (its own prefix only: other users share this Redis). */
export async function deleteQueuePrefix(redisUrl, prefix) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Builds the four apps (nx caches what did not change). */
export function buildApps() {
  const build = spawnSync(
    'npx',
    ['nx', 'run-many', '-t', 'build', `--projects=${APPS.join(',')}`],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false' },
    },
  );
  if (build.status !== 0) throw new Error('build failed');
}

/** Migrates the run's database with the built migrate CLI. */
export function migrate(env) {
  const result = spawnSync(process.execPath, [entry('gateway', 'cli/migrate')], {
    env,
    // Its report on stderr: the bench's stdout is the table.
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  if (result.status !== 0) throw new Error('migration failed');
}

const entry = (app, file = 'main') =>
  path.join(root, 'dist', app, 'apps', app, 'src', `${file}.js`);
const PORTS = { gateway: 3700, 'task-worker': 3701, 'webhook-dispatcher': 3702, billing: 3703 };

/**
 * Starts the four apps; resolves when every /ready answers 200. `nodeArgs`
 * go before each app's entry (GC settings to measure, or `--cpu-prof`, which
 * NODE_OPTIONS does not allow).
 */
export async function startPlatform(env, nodeArgs = []) {
  const procs = {};
  for (const app of APPS) {
    procs[app] = spawn(process.execPath, [...nodeArgs, entry(app)], {
      env: { ...env, PORT: String(PORTS[app]) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const stop = () =>
    Promise.all(
      Object.values(procs).map(
        (p) =>
          new Promise((resolve) => {
            if (p.exitCode !== null || p.signalCode !== null) return resolve();
            p.once('exit', resolve);
            p.kill('SIGTERM');
            setTimeout(() => p.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    );
  try {
    for (const app of APPS) {
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`http://127.0.0.1:${PORTS[app]}/ready`)).status === 200) break;
        } catch {
          /* not up yet */
        }
        const { exitCode, signalCode } = procs[app];
        if (exitCode !== null || signalCode !== null)
          throw new Error(`${app} exited before it was ready (${exitCode ?? signalCode})`);
        // A busy machine (other tenants) can take 10 s and more to start the four.
        if (i > 600) throw new Error(`${app} did not become ready in 60 s`);
        await sleep(100);
      }
    }
  } catch (error) {
    await stop(); // nothing left running
    throw error;
  }
  return {
    baseUrl: `http://127.0.0.1:${PORTS.gateway}`,
    /** When every app answered /ready (ms): latency windows wait for start-up to end (warmUpSeconds). */
    readyAt: Date.now(),
    pids: Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, p.pid])),
    stop,
  };
}

/**
 * One platform for a run or a scenario: a fresh database (`genhub_bench_<label>`)
 * and queue prefix, migrated; the four built apps started with `extraEnv` on top
 * of the bench's environment; the terminal notices watched. `use({ platform, env,
 * notices })` measures against it; afterwards, whatever happened, the apps are
 * stopped and the database, the queue keys and the storage deleted.
 */
export async function withPlatform({ label, extraEnv = {}, nodeArgs = [] }, use) {
  const { database, env } = benchEnvironment(label);
  Object.assign(env, extraEnv);
  let platform;
  let notices;
  try {
    await recreateDatabase(database);
    migrate(env);
    platform = await startPlatform(env, nodeArgs);
    notices = await watchTerminalNotices(env.REDIS_URL, env.QUEUE_PREFIX);
    return await use({ platform, env, notices });
  } finally {
    await notices?.close();
    await platform?.stop();
    await dropDatabase(database);
    await deleteQueuePrefix(env.REDIS_URL, env.QUEUE_PREFIX);
    fs.rmSync(env.STORAGE_DIR, { recursive: true, force: true });
  }
}

/** Creates accounts with a large balance and one key each, through the admin API. */
export async function seedAccounts(baseUrl, adminToken, count, balance = 1_000_000) {
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const keys = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < count) {
        const i = next++;
        const account = await (
          await fetch(`${baseUrl}/admin/v1/accounts`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ balance }),
          })
        ).json();
        const key = await (
          await fetch(`${baseUrl}/admin/v1/accounts/${account.id}/api-keys`, {
            method: 'POST',
            headers,
            body: '{}',
          })
        ).json();
        if (!key.key)
          throw new Error(`seeding failed: ${JSON.stringify(account)} ${JSON.stringify(key)}`);
        keys[i] = key.key;
      }
    }),
  );
  return keys;
}
