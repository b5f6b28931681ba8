import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltApp, buildAppForTest, closedPort } from '@genhub/testing';

/**
 * The built gateway as the Docker image runs it (`NODE_ENV=production`,
 * decision 0127): a published example secret, a missing one or the simulator
 * stops it at start with one line naming the variable and exit 1; generated
 * secrets start it.
 */
const root = join(__dirname, '../../../..');

interface Exit {
  code: number | null;
  stderr: string;
}

/** Runs the built gateway until it exits, or until /health answers (then stops it). */
async function runGateway(entry: string, env: NodeJS.ProcessEnv): Promise<Exit | 'healthy'> {
  const port = await closedPort();
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
  const end = Date.now() + 60_000;
  try {
    while (Date.now() < end) {
      const done = await Promise.race([
        exited,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200)),
      ]);
      if (done) return done;
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return 'healthy';
      } catch {
        // Still starting.
      }
    }
    throw new Error('the gateway neither exited nor answered /health');
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  }
}

/** `openssl rand -hex 32`-like values, distinct per purpose. */
const GENERATED = {
  ADMIN_TOKEN: '3c9e1a7f5b2d8046c1e9a3f7b5d2806e4c1a9f3e7b5d280c6e4a1f9c3e7b5d28',
  API_KEY_PEPPER: '8b1f4d7a2c6e9035b8f1d4a7c2e6903b5f8d1a4c7e2b6093d5f8a1c4e7b2d609',
  METRICS_TOKEN: 'e05a3d8b1f6c9247e0a5d3b8f1c6927a4e0d5b3f8c1a6927e4d0a5f3b8c1e692',
};

describe('the built gateway in production mode', () => {
  let gateway: BuiltApp;
  const storage = mkdtempSync(join(tmpdir(), 'genhub-production-mode-'));

  beforeAll(() => {
    gateway = buildAppForTest('gateway', 'production-mode');
  }, 180_000);
  afterAll(() => {
    gateway?.remove();
    rmSync(storage, { recursive: true, force: true });
  });

  const production = (env: NodeJS.ProcessEnv) =>
    runGateway(gateway.entry(), {
      NODE_ENV: 'production',
      STORAGE_DIR: join(storage, 'objects'),
      ...GENERATED,
      ...env,
    });

  it.each([
    [
      'the example Secret’s admin token',
      { ADMIN_TOKEN: 'CHANGE-ME-at-least-16-characters' },
      'gateway: Invalid configuration: ADMIN_TOKEN is a published example or placeholder, refused in production (NODE_ENV=production): generate one with `openssl rand -hex 32`',
    ],
    [
      'the old default pepper',
      { API_KEY_PEPPER: 'genhub-default-pepper-change-me' },
      'gateway: Invalid configuration: API_KEY_PEPPER is a published example or placeholder, refused in production (NODE_ENV=production): generate one with `openssl rand -hex 32`',
    ],
    [
      'no metrics token',
      { METRICS_TOKEN: undefined },
      'gateway: Invalid configuration: METRICS_TOKEN is required in production (NODE_ENV=production): generate one with `openssl rand -hex 32` (not set)',
    ],
    [
      'the simulator',
      { ENABLE_SIMULATOR: 'true' },
      'gateway: Invalid configuration: ENABLE_SIMULATOR must be false in production (NODE_ENV=production): the simulator lets any account hold worker slots and choose refunded failures (got "true")',
    ],
  ])(
    'refuses %s: exit 1, one line naming it',
    async (_, env, line) => {
      expect(await production(env)).toEqual({ code: 1, stderr: `${line}\n` });
    },
    90_000,
  );

  it('starts with generated secrets', async () => {
    expect(await production({})).toBe('healthy');
  }, 90_000);
});
