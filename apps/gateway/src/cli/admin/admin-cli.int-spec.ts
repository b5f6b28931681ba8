import { spawnSync } from 'node:child_process';
import { buildAppForTest } from '@genhub/testing';
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
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    const id = created.json.id as string;

    const defaults = await admin('create-account');
    expect(defaults.json).toMatchObject({ currency: 'USD', account_level: 'Bronze', balance: 0 });

    const fetched = await admin('get-account', id);
    expect(fetched.json).toEqual({ ...created.json, webhook_secret: undefined });
    expect(fetched.json).not.toHaveProperty('webhook_secret');

    const key = await admin('create-key', id, '--name', 'ci');
    expect(key.json).toEqual({ id: expect.any(String), key: expect.stringMatching(/^gh_/) });

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
        'list-keys',
        'create-key',
        'revoke-key',
        'top-up',
        'suspend',
        'unsuspend',
        'demo',
        'help',
      ]),
    );
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
          status: 'revoked',
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
    build.remove();
  });
});
