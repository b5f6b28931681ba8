import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BuiltApp,
  buildAppForTest,
  closedPort,
  createTestDatabase,
  deleteQueuePrefix,
  dropTestDatabase,
  testQueuePrefix,
  until,
} from '@genhub/testing';

/**
 * `npm start` as a newcomer runs it (issues 17 and 33): each app on its own
 * port, `ready` only once all four answer /ready, every address handed out
 * following PORT or PUBLIC_BASE_URL/CDN_URL, request lines with their status,
 * a busy port or an unreachable database refused in one line, and an app
 * that cannot listen exiting instead of lingering.
 */
const root = join(__dirname, '../../../..');
const launcher = join(root, 'tools/start/start.mjs');

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(command: string, env: NodeJS.ProcessEnv, args: string[] = []): Run {
  const child = spawn(process.execPath, [command, ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Waits for the launcher's `ready`; returns the demo key it printed. */
async function ready(start: Run): Promise<string> {
  await until(() => /\] ready\n/.test(start.stderr()) || start.child.exitCode !== null, {
    ms: 200_000,
    every: 200,
    what: '`ready`',
  });
  expect(start.stderr()).toMatch(/\] ready\n/);
  return /API key: (gh_\S+)/.exec(start.stderr())?.[1] as string;
}

/** A completed simulator task (one PNG output), submitted with `sync=true`. */
async function completedTask(base: string, key: string): Promise<{ outputs: string[] }> {
  const answer = await fetch(`${base}/v1/local/simulator/test?sync=true`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a lighthouse', num_outputs: 1 }),
  });
  const task = (await answer.json()) as { status: string; outputs: string[] };
  expect(task.status).toBe('completed');
  return task;
}

/** The bytes at `url` are a PNG image. */
async function expectPng(url: string): Promise<void> {
  const file = await fetch(url);
  expect(file.status).toBe(200);
  expect(
    Buffer.from(await file.arrayBuffer())
      .subarray(1, 4)
      .toString('latin1'),
  ).toBe('PNG');
}

const stopped = async (start: Run) => {
  start.child.kill('SIGTERM');
  return start.exited;
};

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
    const start = run(launcher, {
      PORT: String(base),
      DATABASE_URL: db.url,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'info',
    });
    try {
      const demoKey = await ready(start);
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
      const demo = await fetch(`http://127.0.0.1:${base}/v1/balance`, {
        headers: { authorization: `Bearer ${demoKey}` },
      });
      expect(demo.status).toBe(200);
      // A completed task's output is served where its URL says: the gateway's PORT.
      const { outputs } = await completedTask(`http://127.0.0.1:${base}`, demoKey);
      expect(outputs[0]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${base}/cdn/outputs/`));
      await expectPng(outputs[0]);
      // Where stdout is not a terminal the apps' lines stay JSON; each request line has its status.
      const requests = start
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"request completed"'))
        .map((line) => JSON.parse(line) as { req: { url: string }; res: { statusCode: unknown } });
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((r) => !Number.isInteger(r.res.statusCode))).toEqual([]);
      expect(requests).toContainEqual(
        expect.objectContaining({
          req: expect.objectContaining({ url: '/v1/local/simulator/test?sync=true' }),
          res: { statusCode: 200 },
        }),
      );
    } finally {
      start.child.kill('SIGTERM');
    }
    expect(await start.exited).toBe(0);
    for (const port of [base, base + 1, base + 2, base + 3])
      expect(await status(`http://127.0.0.1:${port}/health`)).toBe(0);
  });

  it('hands out addresses under PUBLIC_BASE_URL and CDN_URL, and shows readable log lines', async () => {
    const base = await freeBase();
    const publicBase = `http://localhost:${base}`;
    const start = run(launcher, {
      PORT: String(base),
      DATABASE_URL: db.url,
      QUEUE_PREFIX: prefix,
      PUBLIC_BASE_URL: `${publicBase}/`,
      CDN_URL: `http://127.0.0.1:${base}/cdn/`,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'pretty',
    });
    try {
      const demoKey = await ready(start);
      expect(start.stderr()).toContain(`console: ${publicBase}/console/`);
      expect(start.stderr()).toContain(`try: curl -s -X POST '${publicBase}/v1/local/simulator/`);
      // Files under CDN_URL; links in answers under PUBLIC_BASE_URL, whatever host was called.
      const { outputs } = await completedTask(publicBase, demoKey);
      expect(outputs[0]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${base}/cdn/outputs/`));
      await expectPng(outputs[0]);
      const v3 = await fetch(`http://127.0.0.1:${base}/api/v3/local/simulator/test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a lighthouse', enable_sync_mode: true }),
      });
      const { data } = (await v3.json()) as { data: { id: string; urls: { get: string } } };
      expect(data.urls.get).toBe(`${publicBase}/api/v3/predictions/${data.id}/result`);
      expect(
        (await fetch(data.urls.get, { headers: { authorization: `Bearer ${demoKey}` } })).status,
      ).toBe(200);
      // LOG_FORMAT=pretty: one readable line per request, with its status.
      await until(
        () => /gateway GET \/api\/v3\/predictions\/\S+\/result 200 /.test(start.stdout()),
        { ms: 5000, every: 200, what: 'the log line' },
      );
      expect(start.stdout()).toMatch(
        /INFO: gateway POST \/v1\/local\/simulator\/test\?sync=true 200 [\d.]+ ms/,
      );
    } finally {
      expect(await stopped(start)).toBe(0);
    }
  });

  it('answers --help with its options, and a wrong option or app with one line', async () => {
    const help = spawnSync(process.execPath, [launcher, '--help'], { cwd: root, encoding: 'utf8' });
    expect([help.status, help.stdout]).toEqual([0, expect.stringMatching(/^usage: npm start/)]);
    for (const [args, line] of [
      [['--bogus'], "start: Unknown option '--bogus' (see --help)"],
      [['billing', 'gateway'], 'start: at most one app (see --help)'],
      [
        ['mailer'],
        "start: unknown app 'mailer'; one of: gateway, task-worker, webhook-dispatcher, billing (see --help)",
      ],
    ] as const) {
      const refused = spawnSync(process.execPath, [launcher, ...args], {
        cwd: root,
        encoding: 'utf8',
      });
      expect([refused.status, refused.stderr]).toEqual([2, `${line}\n`]);
    }
  });

  it('stops in one line when the database cannot be reached', async () => {
    const base = await freeBase();
    const start = run(launcher, {
      PORT: String(base),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/genhub`,
      QUEUE_PREFIX: prefix,
    });
    expect(await start.exited).toBe(1);
    expect(start.stderr()).not.toMatch(/^\s+at /m);
    expect(start.stderr()).toMatch(
      /migrate: connect ECONNREFUSED 127\.0\.0\.1:\d+\n\[start\] migrations failed: not starting\n$/,
    );
  });

  it('tells root which folder the embedded PostgreSQL cannot enter', async () => {
    // As root, PostgreSQL runs as user `postgres`: a clone inside a folder only root may enter fails.
    const outer = mkdtempSync(join(tmpdir(), 'genhub-closed-'));
    try {
      mkdirSync(join(outer, 'clone', '.data'), { recursive: true });
      chmodSync(outer, 0o700);
      const probe = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { firstClosedFolder } from ${JSON.stringify(join(root, 'tools/start/lib/postgres.mjs'))};
           const target = ${JSON.stringify(join(outer, 'clone', '.data', 'postgres', 'PG_VERSION'))};
           console.log(JSON.stringify([firstClosedFolder(target, { uid: 4242, gid: 4242 }) ?? null,
             firstClosedFolder(target, { uid: ${process.getuid?.() ?? 0}, gid: 4242 }) ?? null]));`,
        ],
        { encoding: 'utf8' },
      );
      expect(JSON.parse(probe.stdout)).toEqual([outer, null]);
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
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
