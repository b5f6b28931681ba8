import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { buildAppForTest, insertTask } from '@genhub/testing';
import { adminCommands } from './admin-command.util';
import { runAdminCli } from './run-admin-cli.util';

const env = {
  ...process.env,
  API_KEY_PEPPER: 'test-pepper-0123456789',
};

async function admin(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runAdminCli(argv, env, {
    out: (text) => (out += text),
    err: (text) => (err += text),
  });
  return { code, out, err, json: out ? JSON.parse(out) : undefined };
}

describe('admin CLI (PostgreSQL + Redis)', () => {
  it('runs every account command and prints JSON', async () => {
    const created = await admin(
      'create-account',
      '--currency',
      'CNY',
      '--level=Gold',
      '--balance',
      '5',
    );
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      id: expect.any(String),
      currency: 'CNY',
      account_level: 'Gold',
      balance: 5,
      reserved: 0,
      status: 'active',
      max_concurrent_tasks: null,
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    const id = created.json.id as string;

    const defaults = await admin('create-account');
    expect(defaults.json).toMatchObject({ currency: 'USD', account_level: 'Bronze', balance: 0 });

    const fetched = await admin('get-account', id);
    expect(fetched.json).toEqual({ ...created.json, webhook_secret: undefined });
    expect(fetched.json).not.toHaveProperty('webhook_secret');

    const key = await admin('create-key', id, '--name', 'ci');
    expect(key.json).toMatchObject({
      id: expect.any(String),
      name: 'ci',
      status: 'active',
      allowed_models: null,
      spend_limit: null,
      expires_at: null,
      scopes: null,
      key: expect.stringMatching(/^gh_/),
    });

    // Key limits (issue 37): given at creation, changed with update-key, `none` clears one.
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const limited = await admin(
      'create-key',
      id,
      '--models',
      'local/*,openai/*',
      '--spend-limit',
      '5/day',
      '--expires-at',
      expiresAt,
      '--scopes',
      'tasks:read,billing:read',
    );
    expect(limited.code).toBe(0);
    expect(limited.json).toMatchObject({
      allowed_models: ['local/*', 'openai/*'],
      spend_limit: { amount: 5, period: 'day' },
      expires_at: expiresAt,
      scopes: ['tasks:read', 'billing:read'],
    });
    const updated = await admin(
      'update-key',
      id,
      limited.json.id,
      '--spend-limit',
      'none',
      '--scopes',
      'tasks:write',
      '--name',
      'batch',
    );
    expect(updated.code).toBe(0);
    expect(updated.json).toMatchObject({
      id: limited.json.id,
      name: 'batch',
      allowed_models: ['local/*', 'openai/*'],
      spend_limit: null,
      scopes: ['tasks:write'],
    });
    expect(updated.json).not.toHaveProperty('key');
    for (const [argv, message] of [
      [['create-key', id, '--spend-limit', '5/week'], /period must be one of/],
      [
        ['create-key', id, '--expires-at', '2020-01-01T00:00:00Z'],
        /expires_at must be in the future/,
      ],
      [['create-key', id, '--scopes', 'tasks:delete'], /scopes/],
      [['update-key', id, limited.json.id], /nothing to change/],
      [['update-key', randomUUID(), limited.json.id, '--name', 'x'], /Not found/],
    ] as const) {
      const result = await admin(...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 1 });
      expect(result.err).toMatch(message);
    }

    const topUp = await admin('top-up', id, '2.5');
    expect(topUp.json).toMatchObject({ type: 'top-up', amount: 2.5, balance_after: 7.5 });

    expect((await admin('suspend', id)).json).toMatchObject({ id, status: 'suspended' });
    expect((await admin('unsuspend', id)).json).toMatchObject({ id, status: 'active' });
    expect((await admin('revoke-key', key.json.id)).json).toEqual({
      id: key.json.id,
      status: 'revoked',
    });

    const help = await admin('help');
    expect(help.code).toBe(0);
    expect(help.json.commands.map((c: { command: string }) => c.command.split(' ')[0])).toEqual(
      expect.arrayContaining([
        'create-account',
        'get-account',
        'list-accounts',
        'list-queue',
        'list-keys',
        'create-key',
        'update-key',
        'revoke-key',
        'top-up',
        'update-account',
        'suspend',
        'unsuspend',
        'demo',
        'help',
        'audit',
      ]),
    );
  });

  it('answers --help, alone or after a command, without a database', async () => {
    const offline = { ...env, DATABASE_URL: 'mysql://nowhere', REDIS_URL: 'nope' };
    const help = async (...argv: string[]) => {
      let out = '';
      let err = '';
      const code = await runAdminCli(argv, offline, {
        out: (text) => (out += text),
        err: (text) => (err += text),
      });
      return { code, out, err };
    };
    for (const argv of [[], ['--help'], ['-h']]) {
      const result = await help(...argv);
      expect({ argv, code: result.code, err: result.err }).toEqual({ argv, code: 0, err: '' });
      expect(result.out).toMatch(/^usage: npm run admin -- <command>/);
      for (const command of adminCommands()) expect(result.out).toContain(`  ${command.usage}\n`);
    }
    for (const [argv, usage] of [
      [['create-account', '--help'], 'create-account [--currency USD|CNY]'],
      [['get-account', '-h'], 'get-account <accountId>'],
      [['top-up', 'x', '--help'], 'top-up <accountId> <amount>'],
      [['audit', '--help'], 'audit [--json]'],
    ] as const) {
      const result = await help(...argv);
      expect({ argv, code: result.code, err: result.err }).toEqual({ argv, code: 0, err: '' });
      expect(result.out.split('\n')[0]).toContain(`usage: npm run admin -- ${usage}`);
    }
    // The wrapper (tools/start/admin.mjs) checks the command line this way before it starts a database.
    const check = (...argv: string[]) =>
      runAdminCli(
        argv,
        offline,
        { out: () => undefined, err: () => undefined },
        { usageOnly: true },
      );
    expect(await check('get-account', '00000000-0000-0000-0000-000000000000')).toBe(0);
    expect(await check('get-account', '--nope', 'x')).toBe(2);
  });

  it("lists accounts a page at a time and an account's keys (decision 0116)", async () => {
    const first = (await admin('create-account')).json.id as string;
    const second = (await admin('create-account', '--balance', '3')).json.id as string;
    expect((await admin('suspend', second)).code).toBe(0);

    const page = await admin('list-accounts', '--limit', '1');
    expect(page.code).toBe(0);
    expect(page.json).toEqual({ data: [expect.any(Object)], next_cursor: expect.any(String) });
    const next = await admin('list-accounts', '--limit=1', '--cursor', page.json.next_cursor);
    expect(next.json.data[0].id).not.toBe(page.json.data[0].id);
    const single = (await admin('get-account', second)).json;
    const suspended = await admin('list-accounts', '--status', 'suspended', '--limit', '100');
    expect(suspended.json.data).toContainEqual(single);
    expect(suspended.json.data.map((a: { id: string }) => a.id)).not.toContain(first);

    const key = await admin('create-key', first, '--name', 'ci');
    expect((await admin('revoke-key', key.json.id)).code).toBe(0);
    const keys = await admin('list-keys', first);
    expect(keys.json).toEqual({
      data: [
        {
          id: key.json.id,
          name: 'ci',
          prefix: expect.stringMatching(/^gh_/),
          status: 'revoked',
          allowed_models: null,
          spend_limit: null,
          spent: 0,
          expires_at: null,
          scopes: null,
          created_at: expect.any(String),
          revoked_at: expect.any(String),
          last_used_at: null,
        },
      ],
    });
    expect(keys.out).not.toContain(key.json.key);

    for (const [argv, message] of [
      [['list-accounts', '--limit', '0'], /limit must not be less than 1/],
      [['list-accounts', '--status', 'gone'], /status must be one of/],
      [['list-accounts', '--cursor', 'nope'], /cursor must be a next_cursor/],
      [['list-keys', '00000000-0000-0000-0000-000000000000'], /^admin: list-keys: Not found/],
    ] as const) {
      const result = await admin(...argv);
      expect({ argv, code: result.code, out: result.out }).toEqual({ argv, code: 1, out: '' });
      expect(result.err).toMatch(message);
    }
  });

  it('lists the queue by account a page at a time (issue 36)', async () => {
    // The run's database is shared: this account's tasks are found among the others'.
    const accountId = randomUUID();
    const db = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await db.initialize();
    try {
      for (let i = 0; i < 3; i++)
        await insertTask(db, {
          id: randomUUID(),
          accountId,
          model: 'local/simulator/test',
          channel: 'local',
          category: 'image',
          input: {},
          webhookUrl: null,
          outputPrefix: null,
          priceUnits: 1,
          timeLimitMs: 60_000,
        });
    } finally {
      await db.destroy();
    }
    const first = await admin('list-queue', '--limit', '1');
    expect(first.code).toBe(0);
    expect(first.json).toEqual({
      data: [expect.objectContaining({ account_id: expect.any(String) })],
      // Alone in the queue (this file run by itself), this account's page is the last.
      next_cursor: first.json.totals.accounts > 1 ? expect.any(String) : null,
      totals: {
        waiting: expect.any(Number),
        running: expect.any(Number),
        accounts: expect.any(Number),
      },
    });
    expect(first.json.totals.waiting).toBeGreaterThanOrEqual(3);
    const seen: { account_id: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await admin(
        'list-queue',
        '--limit=100',
        ...(cursor ? ['--cursor', cursor] : []),
      );
      expect(page.code).toBe(0);
      seen.push(...page.json.data);
      cursor = page.json.next_cursor;
    } while (cursor && !seen.some((a) => a.account_id === accountId));
    expect(seen.find((a) => a.account_id === accountId)).toEqual({
      account_id: accountId,
      waiting: 3,
      running: 0,
      oldest_waiting_at: expect.stringMatching(/Z$/),
    });

    for (const [argv, message] of [
      [['list-queue', '--limit', '101'], /limit must not be greater than 100/],
      [['list-queue', '--cursor', 'nope'], /cursor must be a next_cursor/],
    ] as const) {
      const result = await admin(...argv);
      expect({ argv, code: result.code, out: result.out }).toEqual({ argv, code: 1, out: '' });
      expect(result.err).toMatch(message);
    }
  });

  it("sets and clears an account's cap on tasks running at once, and changes its level (issue 36)", async () => {
    const id = (await admin('create-account')).json.id as string;
    const capped = await admin('update-account', id, '--max-concurrent-tasks', '4');
    expect(capped.code).toBe(0);
    expect(capped.json).toMatchObject({ id, account_level: 'Bronze', max_concurrent_tasks: 4 });
    expect((await admin('get-account', id)).json).toMatchObject({ max_concurrent_tasks: 4 });
    // The fair stage the gateways and workers share heard of it (the run's QUEUE_PREFIX).
    const redis = new Redis(process.env.REDIS_URL as string);
    try {
      const fair = (name: string) => `${process.env.QUEUE_PREFIX}:fair:${name}`;
      expect(await redis.hget(fair('caps'), id)).toBe('4');

      const gold = await admin('update-account', id, '--level', 'Gold');
      expect(gold.json).toMatchObject({ account_level: 'Gold', max_concurrent_tasks: 4 });
      expect(await redis.hget(fair('strides'), id)).toBe('210');

      const cleared = await admin('update-account', id, '--max-concurrent-tasks=none');
      expect(cleared.json).toMatchObject({ account_level: 'Gold', max_concurrent_tasks: null });
      expect(await redis.hget(fair('caps'), id)).toBeNull();
    } finally {
      redis.disconnect();
    }

    for (const [argv, message] of [
      [
        ['update-account', id, '--max-concurrent-tasks', '0'],
        /max_concurrent_tasks must not be less than 1/,
      ],
      [
        ['update-account', id, '--max-concurrent-tasks', '10001'],
        /max_concurrent_tasks must not be greater than 10000/,
      ],
      [
        ['update-account', id, '--max-concurrent-tasks', 'x'],
        /max_concurrent_tasks must be an integer/,
      ],
      [['update-account', id, '--max-concurrent-tasks'], /--max-concurrent-tasks needs a value/],
      [['update-account', id, '--level', 'Diamond'], /account_level must be one of/],
      [['update-account', id], /nothing to change/],
      [
        ['update-account', '00000000-0000-0000-0000-000000000000', '--max-concurrent-tasks', '2'],
        /^admin: update-account: Not found/,
      ],
    ] as const) {
      const result = await admin(...argv);
      expect({ argv, code: result.code, out: result.out }).toEqual({ argv, code: 1, out: '' });
      expect(result.err).toMatch(message);
    }
    expect((await admin('get-account', id)).json).toMatchObject({ max_concurrent_tasks: null });
  });

  it('creates the demo account with --json on one line', async () => {
    const demo = await admin('demo', '--json');
    expect(demo.code).toBe(0);
    expect(demo.out.trim().split('\n')).toHaveLength(1);
    expect(demo.json).toEqual({
      account_id: expect.any(String),
      key: expect.stringMatching(/^gh_[A-Za-z0-9_-]{43}$/),
      balance: 10,
      currency: 'USD',
    });
  });

  it('fails with one clear line and a non-zero code', async () => {
    const cases: [string[], number, RegExp][] = [
      [['nope'], 2, /^admin: unknown command 'nope'/],
      [['--no-such-option'], 2, /^admin: unknown option '--no-such-option' \(see --help\)\n$/],
      [['create-account', '--nope'], 2, /^admin: create-account: unknown option '--nope'; usage:/],
      [['tasks:requeue', '--queue', 'tasks'], 2, /unknown option '--queue'/],
      [['get-account'], 2, /^admin: usage: get-account <accountId>/],
      [
        ['get-account', '00000000-0000-0000-0000-000000000000'],
        1,
        /^admin: get-account: Not found/,
      ],
      [['revoke-key', 'garbage'], 1, /Not found/],
      [['create-account', '--currency', 'EUR'], 1, /currency must be one of/],
      [['create-account', '--balance', 'lots'], 1, /balance must be a number/],
      [['create-account', '--balance'], 1, /--balance needs a value/],
      [['top-up', '00000000-0000-0000-0000-000000000000', '-1'], 1, /amount must be a positive/],
    ];
    for (const [argv, code, message] of cases) {
      const result = await admin(...argv);
      expect({ argv, code: result.code, out: result.out }).toEqual({ argv, code, out: '' });
      expect(result.err).toMatch(message);
      expect(result.err.trim().split('\n')).toHaveLength(1);
    }
    const badConfig = await runAdminCli(
      ['get-account', 'x'],
      { ...env, DATABASE_URL: 'mysql://x' },
      {
        out: () => undefined,
        err: (text) => expect(text).toMatch(/^admin: get-account: .*DATABASE_URL/),
      },
    );
    expect(badConfig).toBe(1);
  });

  it('works as the built process that npm run admin starts', () => {
    const build = buildAppForTest('gateway', 'admin-cli');
    const entry = build.entry('cli/admin');
    const demo = spawnSync(process.execPath, [entry, 'demo', '--json'], { env, encoding: 'utf8' });
    expect(demo.stderr).toBe('');
    expect(demo.status).toBe(0);
    expect(JSON.parse(demo.stdout)).toMatchObject({ balance: 10, currency: 'USD' });
    const missing = spawnSync(
      process.execPath,
      [entry, 'suspend', '00000000-0000-0000-0000-000000000000'],
      {
        env,
        encoding: 'utf8',
      },
    );
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe('admin: suspend: Not found\n');
    const help = spawnSync(process.execPath, [entry, '--help'], { env, encoding: 'utf8' });
    expect({ status: help.status, stderr: help.stderr }).toEqual({ status: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: npm run admin -- <command>/);
    const unknown = spawnSync(process.execPath, [entry, 'create-account', '--nope'], {
      env,
      encoding: 'utf8',
    });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^admin: create-account: unknown option '--nope'; [^\n]*\n$/);
    build.remove();
  });
});
