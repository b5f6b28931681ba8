// Redis for `npm start` when REDIS_URL is unset: the one at 127.0.0.1:6379 if
// it answers, else a redis-server from the PATH on a free port under .data/redis.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from './paths.mjs';
import { canConnect, freePort } from './net.mjs';

export async function ensureRedis(log) {
  if (await canConnect('127.0.0.1', 6379))
    return { url: 'redis://127.0.0.1:6379', stop: async () => {} };
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.error) {
    throw new Error(
      'No Redis answers at 127.0.0.1:6379 and redis-server is not on the PATH. ' +
        'Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) ' +
        'or set REDIS_URL to a running Redis 6.2+.',
    );
  }
  const dir = path.join(dataDir, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort(6380);
  const child = spawn(
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
      '--save',
      '',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 50 && !(await canConnect('127.0.0.1', port)); i++) await sleep(100);
  log(`started redis-server on 127.0.0.1:${port} (data in ${path.relative(process.cwd(), dir)})`);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
