import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { until } from '@genhub/testing';
import {
  AdminAccount,
  admin,
  call,
  createAdminAccount,
  RunningGateway,
  startGateway,
  TEST_ADMIN_TOKEN,
} from '../test/gateway-harness.util';

type Account = AdminAccount;

describe('admin API and authentication (in-process gateways, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  let other: RunningGateway;
  let db: DataSource;

  beforeAll(async () => {
    [gw, other] = await Promise.all([startGateway(), startGateway()]);
    db = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await db.initialize();
  });
  afterAll(async () => {
    await Promise.all([gw.close(), other.close(), db.destroy()]);
  });

  const createAccount = (body?: unknown): Promise<Account> => createAdminAccount(gw.url, body);
  async function createKey(accountId: string): Promise<{ id: string; key: string }> {
    const response = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      method: 'POST',
      headers: admin(),
      body: { name: 'test' },
    });
    expect(response.status).toBe(201);
    return response.body as { id: string; key: string };
  }
  const whoami = (base: string, key: string, path = '/v1/test/whoami') =>
    call(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it('creates accounts with the defaults or the given values; the secret only at creation', async () => {
    const plain = await createAccount();
    expect(plain).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      currency: 'USD',
      account_level: 'Bronze',
      balance: 0,
      reserved: 0,
      status: 'active',
      max_concurrent_tasks: null,
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/),
    });
    const rich = await createAccount({ currency: 'CNY', account_level: 'Platinum', balance: 12.5 });
    expect(rich).toMatchObject({ currency: 'CNY', account_level: 'Platinum', balance: 12.5 });

    const fetched = await call(`${gw.url}/admin/v1/accounts/${rich.id}`, { headers: admin() });
    expect(fetched.status).toBe(200);
    const { webhook_secret: _secret, ...withoutSecret } = rich;
    expect(fetched.body).toEqual(withoutSecret);

    // The opening balance is the first top-up record; a zero balance records nothing.
    const records = await db.query(
      `SELECT account_id, type, amount_units FROM billing.records WHERE account_id = ANY($1)`,
      [[plain.id, rich.id]],
    );
    expect(records).toEqual([{ account_id: rich.id, type: 'top-up', amount_units: 12_500_000 }]);
  });

  it('refuses bad bodies with 400 naming the field, and writes nothing', async () => {
    const [{ count: before }] = await db.query(
      `SELECT count(*)::int AS count FROM accounts.accounts`,
    );
    for (const [body, field] of [
      [{ currency: 'EUR' }, 'currency'],
      [{ account_level: 'Diamond' }, 'account_level'],
      [{ balance: -1 }, 'balance'],
      [{ balance: 1.0000001 }, 'balance'],
      [{ balance: '10' }, 'balance'],
      [{ bonus: 1 }, 'bonus'],
    ] as const) {
      const response = await call(`${gw.url}/admin/v1/accounts`, {
        method: 'POST',
        headers: admin(),
        body,
      });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect((response.body as { code: number; error: string }).error).toContain(field);
    }
    const [{ count: after }] = await db.query(
      `SELECT count(*)::int AS count FROM accounts.accounts`,
    );
    expect(after).toBe(before);
  });

  it('tops up with a billing record, shows balance net of reservations, and validates amounts', async () => {
    const account = await createAccount({ balance: 1 });
    const topUp = await call(`${gw.url}/admin/v1/accounts/${account.id}/top-ups`, {
      method: 'POST',
      headers: admin(),
      body: { amount: 2.25 },
    });
    expect(topUp.status).toBe(201);
    expect(topUp.body).toEqual({
      id: expect.any(String),
      date: new Date().toISOString().slice(0, 10),
      type: 'top-up',
      amount: 2.25,
      balance_after: 3.25,
    });
    for (const amount of [0, -5, 0.0000001, 1e21, 'ten', null]) {
      const refused = await call(`${gw.url}/admin/v1/accounts/${account.id}/top-ups`, {
        method: 'POST',
        headers: admin(),
        body: { amount },
      });
      expect({ amount, status: refused.status }).toEqual({ amount, status: 400 });
    }
    const unknown = await call(`${gw.url}/admin/v1/accounts/${randomUUID()}/top-ups`, {
      method: 'POST',
      headers: admin(),
      body: { amount: 1 },
    });
    expect(unknown).toMatchObject({ status: 404, body: { code: 404, error: 'Not found' } });

    await db.query(`UPDATE billing.balances SET reserved_units = 250000 WHERE account_id = $1`, [
      account.id,
    ]);
    const fetched = await call(`${gw.url}/admin/v1/accounts/${account.id}`, { headers: admin() });
    expect(fetched.body).toMatchObject({ balance: 3, reserved: 0.25 });
  });

  it('answers 404 for unknown or malformed ids', async () => {
    for (const [method, path] of [
      ['GET', `/admin/v1/accounts/${randomUUID()}`],
      ['GET', '/admin/v1/accounts/not-a-uuid'],
      ['POST', `/admin/v1/accounts/${randomUUID()}/api-keys`],
      ['DELETE', `/admin/v1/api-keys/${randomUUID()}`],
      ['DELETE', '/admin/v1/api-keys/42'],
      ['POST', `/admin/v1/accounts/${randomUUID()}/suspend`],
      ['POST', `/admin/v1/accounts/${randomUUID()}/unsuspend`],
    ])
      expect(await call(`${gw.url}${path}`, { method, headers: admin() })).toMatchObject({
        status: 404,
        body: { code: 404, error: 'Not found' },
      });
  });

  it('guards the admin API: 401 without the right token, 404 everywhere when ADMIN_TOKEN is unset', async () => {
    expect(await call(`${gw.url}/admin/v1/accounts/${randomUUID()}`)).toMatchObject({
      status: 401,
      body: { code: 401, error: 'Missing Authorization header' },
    });
    expect(
      await call(`${gw.url}/admin/v1/accounts`, {
        method: 'POST',
        headers: admin(`${TEST_ADMIN_TOKEN}x`),
        body: {},
      }),
    ).toMatchObject({ status: 401, body: { code: 401, error: 'Invalid admin token' } });

    const closed = await startGateway({ ADMIN_TOKEN: undefined });
    try {
      for (const [method, path] of [
        ['POST', '/admin/v1/accounts'],
        ['GET', `/admin/v1/accounts/${randomUUID()}`],
        ['DELETE', `/admin/v1/api-keys/${randomUUID()}`],
      ])
        expect(
          await call(`${closed.url}${path}`, {
            method,
            headers: admin(),
            body: method === 'POST' ? {} : undefined,
          }),
        ).toMatchObject({ status: 404, body: { code: 404, error: 'Not found' } });
    } finally {
      await closed.close();
    }
  });

  it('answers each authentication refusal with the interface message, in {code, error} on chat too', async () => {
    const account = await createAccount();
    const { key } = await createKey(account.id);
    const cases: [Record<string, string>, number, string][] = [
      [{}, 401, 'Missing Authorization header'],
      [{ authorization: key }, 401, 'Invalid Authorization format, expected: Bearer <api_key>'],
      [
        { authorization: `Basic ${key}` },
        401,
        'Invalid Authorization format, expected: Bearer <api_key>',
      ],
      [{ authorization: `Bearer gh_${'x'.repeat(43)}` }, 401, 'Invalid or revoked API key'],
      [{ authorization: 'Bearer something-else' }, 401, 'Invalid or revoked API key'],
    ];
    for (const path of ['/v1/test/whoami', '/v1/chat/test-whoami'])
      for (const [headers, status, error] of cases)
        expect(await call(`${gw.url}${path}`, { headers })).toMatchObject({
          status,
          body: { code: status, error },
        });
    // The v3 family keeps its envelope for the same refusals.
    expect(await call(`${gw.url}/api/v3/test/whoami`)).toMatchObject({
      status: 401,
      body: { code: 401, message: 'Missing Authorization header', data: null },
    });
    // A chat handler's own error is in the chat shape.
    const chat = await call(`${gw.url}/v1/chat/test-invalid`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: {},
    });
    expect(chat).toMatchObject({
      status: 400,
      body: {
        error: { message: 'model is required', type: 'invalid_request_error', param: 'model' },
      },
    });
  });

  it('authenticates a key as its own account only, and records its use', async () => {
    const a = await createAccount({ currency: 'CNY', account_level: 'Gold' });
    const b = await createAccount();
    const keyA = await createKey(a.id);
    const keyB = await createKey(b.id);
    expect((await whoami(gw.url, keyA.key)).body).toEqual({
      id: a.id,
      currency: 'CNY',
      accountLevel: 'Gold',
      maxConcurrentTasks: null,
      apiKeyId: keyA.id,
      // A key issued without settings has no limits of its own (issue 37).
      apiKeyLimits: { allowedModels: null, scopes: null, expiresAt: null, spendLimit: null },
    });
    expect((await whoami(gw.url, keyB.key)).body).toMatchObject({ id: b.id, apiKeyId: keyB.id });
    // The use is recorded off the request's path (not awaited by it): wait for the write.
    const lastUsedAt = await until(async () => {
      const [row] = await db.query(`SELECT last_used_at FROM accounts.api_keys WHERE id = $1`, [
        keyA.id,
      ]);
      return row.last_used_at as Date | null;
    });
    expect(lastUsedAt).toBeInstanceOf(Date);
    // Only the hash is stored.
    const [row] = await db.query(`SELECT * FROM accounts.api_keys WHERE id = $1`, [keyA.id]);
    expect(JSON.stringify(row)).not.toContain(keyA.key);
  });

  it('revocation and suspension take effect on every gateway within one second', async () => {
    const account = await createAccount();
    const { id: keyId, key } = await createKey(account.id);
    // Both replicas have the key cached.
    expect((await whoami(gw.url, key)).status).toBe(200);
    expect((await whoami(other.url, key)).status).toBe(200);

    const suspended = await call(`${gw.url}/admin/v1/accounts/${account.id}/suspend`, {
      method: 'POST',
      headers: admin(),
    });
    expect(suspended).toMatchObject({ status: 200, body: { id: account.id, status: 'suspended' } });
    await expectWithin(1000, async () => {
      const response = await whoami(other.url, key);
      return response.status === 403 && (response.body as { code: number }).code === 403;
    });
    expect(await whoami(gw.url, key, '/v1/chat/test-whoami')).toMatchObject({
      status: 403,
      body: { code: 403, error: 'Account suspended' },
    });

    const active = await call(`${other.url}/admin/v1/accounts/${account.id}/unsuspend`, {
      method: 'POST',
      headers: admin(),
    });
    expect(active).toMatchObject({ status: 200, body: { status: 'active' } });
    await expectWithin(1000, async () => (await whoami(gw.url, key)).status === 200);

    const revoked = await call(`${gw.url}/admin/v1/api-keys/${keyId}`, {
      method: 'DELETE',
      headers: admin(),
    });
    expect(revoked).toMatchObject({ status: 200, body: { id: keyId, status: 'revoked' } });
    await expectWithin(1000, async () => (await whoami(other.url, key)).status === 401);
    expect(await whoami(gw.url, key)).toMatchObject({
      status: 401,
      body: { code: 401, error: 'Invalid or revoked API key' },
    });
    // Revoking again is harmless.
    expect(
      (
        await call(`${other.url}/admin/v1/api-keys/${keyId}`, {
          method: 'DELETE',
          headers: admin(),
        })
      ).status,
    ).toBe(200);
  });

  it("rotates an account's webhook secret (extension, decision 0066)", async () => {
    const account = await createAccount();
    const rotated = await call(`${gw.url}/admin/v1/accounts/${account.id}/webhook-secret`, {
      method: 'POST',
      headers: admin(),
    });
    expect(rotated).toMatchObject({
      status: 200,
      body: { id: account.id, webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/) },
    });
    const secret = (rotated.body as { webhook_secret: string }).webhook_secret;
    expect(secret).not.toBe(account.webhook_secret);
    const [row] = await db.query(`SELECT webhook_secret FROM accounts.accounts WHERE id = $1`, [
      account.id,
    ]);
    expect(row.webhook_secret).toBe(secret);

    const unknown = await call(
      `${gw.url}/admin/v1/accounts/00000000-0000-0000-0000-000000000000/webhook-secret`,
      { method: 'POST', headers: admin() },
    );
    expect(unknown).toMatchObject({ status: 404, body: { code: 404, error: 'Not found' } });
    const anonymous = await call(`${gw.url}/admin/v1/accounts/${account.id}/webhook-secret`, {
      method: 'POST',
    });
    expect(anonymous.status).toBe(401);
  });
});

/** Polls `check` until it holds; fails if it does not within `ms`. */
async function expectWithin(ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
