import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import {
  BuiltApp,
  buildAppForTest,
  createTestDatabase,
  deleteQueuePrefix,
  dropTestDatabase,
  testQueuePrefix,
} from '@genhub/testing';

/**
 * `npm start` as a newcomer runs it (issue 17): each app on its own port,
 * `ready` only once all four answer /ready, a busy port refused up front,
 * and an app that cannot listen exits instead of lingering.
 */
const root = join(__dirname, '../../../..');
const launcher = join(root, 'tools/start/start.mjs');

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(command: string, env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, [command], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Four consecutive ports nobody uses now (PORT and the three after it), below
 * the kernel's ephemeral range (32768+) so no client socket takes one meanwhile.
 */
async function freeBase(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const held: Server[] = [];
    try {
      for (let i = 0; i < 4; i++) held.push(await occupy(base + i));
      return base;
    } catch {
      /* one of them is taken: try elsewhere */
    } finally {
      await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
    }
  }
}

const status = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return 0;
  }
};

describe('npm start: ports, readiness, fail-fast (real processes)', () => {
  jest.setTimeout(240_000);
  let db: { url: string; name: string };
  const prefix = testQueuePrefix('launcher');

  beforeAll(async () => {
    db = await createTestDatabase('launcher');
  });
  afterAll(async () => {
    await deleteQueuePrefix(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    await dropTestDatabase(db.name);
  });

  it('serves the gateway on PORT and the other apps on the next three; ready after all four', async () => {
    const base = await freeBase();
    const start = run(launcher, { PORT: String(base), DATABASE_URL: db.url, QUEUE_PREFIX: prefix });
    try {
      await until(
        () => /\] ready\n/.test(start.stderr()) || start.child.exitCode !== null,
        200_000,
        '`ready`',
      );
      expect(start.stderr()).toMatch(/\] ready\n/);
      // By the time it says ready, every app already answers its probe.
      for (const port of [base + 1, base + 2, base + 3])
        expect(await status(`http://127.0.0.1:${port}/ready`)).toBe(200);
      const balance = await fetch(`http://127.0.0.1:${base}/v1/balance`);
      expect(balance.status).toBe(401);
      expect(await balance.json()).toEqual({ code: 401, error: 'Missing Authorization header' });
      expect(start.stderr()).toContain(`webhook-dispatcher: http://127.0.0.1:${base + 2}`);
      // The console it prints is served by the gateway.
      expect(start.stderr()).toContain(`console: http://127.0.0.1:${base}/console/`);
      const consolePage = await fetch(`http://127.0.0.1:${base}/console/`);
      expect([consolePage.status, await consolePage.text()]).toEqual([
        200,
        expect.stringContaining('<title>genhub console</title>'),
      ]);
      // The demo key it prints works against this database (a demo file left by another
      // database is replaced, not repeated).
      const demoKey = /API key: (gh_\S+)/.exec(start.stderr())?.[1];
      const demo = await fetch(`http://127.0.0.1:${base}/v1/balance`, {
        headers: { authorization: `Bearer ${demoKey}` },
      });
      expect(demo.status).toBe(200);
    } finally {
      start.child.kill('SIGTERM');
    }
    expect(await start.exited).toBe(0);
    for (const port of [base, base + 1, base + 2, base + 3])
      expect(await status(`http://127.0.0.1:${port}/health`)).toBe(0);
  });

  it('refuses a busy port before starting anything, naming the port and the app', async () => {
    const base = await freeBase();
    const squatter = await occupy(base + 2);
    try {
      const start = run(launcher, { PORT: String(base), DATABASE_URL: db.url });
      expect(await start.exited).toBe(1);
      expect(start.stderr().trim()).toBe(
        `[start] port ${base + 2} (webhook-dispatcher) is already in use: set WEBHOOK_DISPATCHER_PORT to a free port (PORT is the gateway's; TASK_WORKER_PORT, WEBHOOK_DISPATCHER_PORT, BILLING_PORT default to the next three)`,
      );
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });

  describe('an app that cannot finish starting', () => {
    let worker: BuiltApp;
    beforeAll(() => {
      worker = buildAppForTest('task-worker', 'launcher');
    });
    afterAll(() => worker.remove());

    it('exits 1 with one line saying why, instead of running without a listener', async () => {
      const base = await freeBase();
      const squatter = await occupy(base);
      try {
        const app = run(worker.entry(), {
          PORT: String(base),
          DATABASE_URL: db.url,
          QUEUE_PREFIX: prefix,
        });
        expect(await app.exited).toBe(1);
        expect(app.stderr()).toContain(
          `task-worker: failed to start: listen EADDRINUSE: address already in use 127.0.0.1:${base}`,
        );
      } finally {
        await new Promise((r) => squatter.close(r));
      }
    });
  });
});
