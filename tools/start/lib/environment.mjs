// Resolves the environment every command of the embedded setup shares:
// DATABASE_URL, REDIS_URL (unless Sentinel or Cluster is set), the embedded
// installation's QUEUE_PREFIX and the generated secrets, kept in .data/.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { dataDir, root } from './paths.mjs';
import { ensureEmbeddedPostgres } from './postgres.mjs';
import { ensureRedis } from './redis.mjs';

export const log = (msg) => process.stderr.write(`[start] ${msg}\n`);

function secrets() {
  const file = path.join(dataDir, 'secrets.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  const generated = {
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    API_KEY_PEPPER: randomBytes(32).toString('base64url'),
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 });
  return generated;
}

/**
 * The queue prefix of the embedded installation: its own, so that two clones on
 * one machine (one Redis) never share queues (decision 0126). A data folder
 * made before prefixes were chosen keeps `genhub`, the jobs it may still have.
 */
function embeddedQueuePrefix(env) {
  const file = path.join(dataDir, 'installation.json');
  if (!fs.existsSync(file)) {
    const existing = fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'));
    const prefix = existing ? 'genhub' : `genhub-${randomBytes(4).toString('hex')}`;
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify({ QUEUE_PREFIX: prefix }, null, 2)}\n`);
  }
  const { QUEUE_PREFIX } = JSON.parse(fs.readFileSync(file, 'utf8'));
  // A Redis Cluster needs the prefix hash-tagged, so that a queue's keys share a slot.
  return env.REDIS_CLUSTER_NODES ? `{${QUEUE_PREFIX}}` : QUEUE_PREFIX;
}

/** Returns { env, stop } with every service this run needs up. */
export async function resolveEnvironment({ needRedis = true } = {}) {
  const env = { ...process.env };
  const stops = [];
  if (!env.DATABASE_URL) {
    env.QUEUE_PREFIX ??= embeddedQueuePrefix(env);
    const pg = await ensureEmbeddedPostgres(log);
    env.DATABASE_URL = pg.url;
    // The embedded PostgreSQL speaks plaintext on 127.0.0.1: a CA set for another one does not apply.
    env.DATABASE_TLS_CA = '';
    stops.push(pg.stop);
  }
  // Sentinel or Cluster settings name the Redis to use: nothing to start then.
  if (needRedis && !env.REDIS_URL && !env.REDIS_SENTINELS && !env.REDIS_CLUSTER_NODES) {
    const redis = await ensureRedis(log);
    env.REDIS_URL = redis.url;
    stops.push(redis.stop);
  }
  const s = secrets();
  env.ADMIN_TOKEN ??= s.ADMIN_TOKEN;
  env.API_KEY_PEPPER ??= s.API_KEY_PEPPER;
  return { env, stop: () => Promise.allSettled(stops.reverse().map((f) => f())) };
}

/** Builds the given apps (cached by Nx, so a second start is quick). */
export function build(apps) {
  const result = spawnSync(
    'npx',
    ['nx', 'run-many', '-t', 'build', `--projects=${apps.join(',')}`, '--outputStyle=static'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    },
  );
  if (result.status !== 0)
    throw new Error('build failed (run `npx nx run-many -t build` to see why)');
}
