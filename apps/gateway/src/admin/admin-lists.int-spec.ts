import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
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
interface AccountPage {
  data: Account[];
  next_cursor: string | null;
}
interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/**
 * The console's reads (decision 0116): the account list in keyset pages and an
 * account's keys. Other test files of the run share the database and create
 * accounts concurrently, so each check looks at this file's own accounts.
 */
describe('admin lists: accounts and API keys (in-process gateway, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  let db: DataSource;

  beforeAll(async () => {
    gw = await startGateway();
    db = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await db.initialize();
  });
  afterAll(async () => {
    await Promise.all([gw.close(), db.destroy()]);
  });

  async function createAccount(body: unknown = {}): Promise<Account> {
    const { webhook_secret: _secret, ...account } = await createAdminAccount(gw.url, body);
    return account;
  }
  const listAccounts = (query = '') =>
    call(`${gw.url}/admin/v1/accounts${query}`, { headers: admin() });
  const listKeys = (accountId: string) =>
    call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, { headers: admin() });

  /** Follows next_cursor from `query` until every id of `wanted` was seen (or the last page). */
  async function pageUntilSeen(wanted: string[], query: string): Promise<Account[][]> {
    const pages: Account[][] = [];
    let cursor: string | null = null;
    do {
      const response = await listAccounts(
        `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(response.status).toBe(200);
      const page = response.body as AccountPage;
      pages.push(page.data);
      cursor = page.next_cursor;
      const seen = new Set(pages.flat().map((a) => a.id));
      if (wanted.every((id) => seen.has(id))) break;
    } while (cursor);
    return pages;
  }

  it('pages through the accounts newest first, each exactly once, stable while accounts are created', async () => {
    const created: Account[] = [];
    for (let i = 0; i < 7; i++) created.push(await createAccount({ balance: i }));
    const newestFirst = created.map((a) => a.id).reverse();

    const pages = await pageUntilSeen(newestFirst, '?limit=2');
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(2);
    const seen = pages.flat().map((a) => a.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => newestFirst.includes(id))).toEqual(newestFirst);
    // Every listed account, this file's or not, in (created_at, id) descending order.
    const rows: { id: string }[] = await db.query(
      `SELECT id FROM accounts.accounts WHERE id = ANY($1) ORDER BY created_at DESC, id DESC`,
      [seen],
    );
    expect(rows.map((r) => r.id)).toEqual(seen);
    // Each item is exactly the single read's answer.
    for (const account of created) {
      const single = await call(`${gw.url}/admin/v1/accounts/${account.id}`, { headers: admin() });
      expect(pages.flat().find((a) => a.id === account.id)).toEqual(single.body);
      expect(single.body).toEqual(account);
    }

    // A page's cursor stays valid when newer accounts arrive: they sort before it.
    const first = (await listAccounts('?limit=3')).body as AccountPage;
    expect(first.data).toHaveLength(3);
    const newer = await createAccount();
    const second = (await listAccounts(
      `?limit=3&cursor=${encodeURIComponent(first.next_cursor as string)}`,
    )) as { status: number; body: AccountPage };
    expect(second.status).toBe(200);
    const both = [...first.data, ...second.body.data].map((a) => a.id);
    expect(new Set(both).size).toBe(both.length);
    expect(both).not.toContain(newer.id);
    expect(((await listAccounts('?limit=1')).body as AccountPage).data[0].id).toBe(newer.id);
  });

  it('answers the default page of 20 at most, and a null cursor on the last page', async () => {
    await createAccount();
    const page = (await listAccounts()).body as AccountPage;
    expect(page.data.length).toBeGreaterThanOrEqual(1);
    expect(page.data.length).toBeLessThanOrEqual(20);
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM accounts.accounts`);
    if (count <= 20) expect(page.next_cursor).toBeNull();
    // Following the cursors ends on a page whose next_cursor is null.
    let cursor: string | null = null;
    let last: AccountPage;
    do {
      last = (
        await listAccounts(`?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      ).body as AccountPage;
      cursor = last.next_cursor;
    } while (cursor);
    expect(last.next_cursor).toBeNull();
  });

  it('filters by status', async () => {
    const active = await createAccount();
    const suspended = await createAccount({ currency: 'CNY', balance: 2 });
    const suspend = await call(`${gw.url}/admin/v1/accounts/${suspended.id}/suspend`, {
      method: 'POST',
      headers: admin(),
    });
    expect(suspend.status).toBe(200);

    const onlySuspended = (await pageUntilSeen([suspended.id], '?status=suspended&limit=5')).flat();
    expect(onlySuspended.every((a) => a.status === 'suspended')).toBe(true);
    expect(onlySuspended.find((a) => a.id === suspended.id)).toEqual({
      ...suspended,
      status: 'suspended',
    });
    expect(onlySuspended.map((a) => a.id)).not.toContain(active.id);

    const onlyActive = (await pageUntilSeen([active.id], '?status=active&limit=5')).flat();
    expect(onlyActive.every((a) => a.status === 'active')).toBe(true);
    expect(onlyActive.map((a) => a.id)).toContain(active.id);
    expect(onlyActive.map((a) => a.id)).not.toContain(suspended.id);
  });

  it('shows each balance net of reservations, as the single read does', async () => {
    const a = await createAccount({ balance: 5 });
    const b = await createAccount({ currency: 'CNY', account_level: 'Gold', balance: 1.5 });
    await db.query(`UPDATE billing.balances SET reserved_units = 1250000 WHERE account_id = $1`, [
      a.id,
    ]);
    const listed = (await pageUntilSeen([a.id, b.id], '?limit=100')).flat();
    for (const account of [a, b]) {
      const single = await call(`${gw.url}/admin/v1/accounts/${account.id}`, { headers: admin() });
      expect(listed.find((x) => x.id === account.id)).toEqual(single.body);
    }
    expect(listed.find((x) => x.id === a.id)).toMatchObject({ balance: 3.75, reserved: 1.25 });
    expect(listed.find((x) => x.id === b.id)).toMatchObject({ balance: 1.5, reserved: 0 });
    expect(JSON.stringify(listed)).not.toContain('webhook_secret');
  });

  it('refuses a bad limit, cursor, status or an unknown parameter with 400 in the admin shape', async () => {
    const junk = (text: string) => Buffer.from(text).toString('base64url');
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?limit=', 'limit'],
      ['?limit=1&limit=2', 'limit'],
      ['?cursor=not-a-cursor', 'cursor'],
      [`?cursor=${junk(`2025-01-01T00:00:00.000000Z|not-a-uuid`)}`, 'cursor'],
      [`?cursor=${junk(`2025-01-01|${randomUUID()}`)}`, 'cursor'],
      [`?cursor=${junk(`2025-01-01T00:00:00.000000Z|${randomUUID()}|x`)}`, 'cursor'],
      ['?cursor=', 'cursor'],
      [`?cursor=${'a'.repeat(201)}`, 'cursor'],
      ['?status=deleted', 'status'],
      ['?status=ACTIVE', 'status'],
      ['?status=active&status=suspended', 'status'],
      ['?sort=asc', 'sort'],
    ]) {
      const response = await listAccounts(query);
      expect({ query, status: response.status, body: response.body }).toEqual({
        query,
        status: 400,
        body: { code: 400, error: expect.stringMatching(/^Invalid request: /) },
      });
      expect((response.body as { error: string }).error).toContain(field);
    }
    // A well-formed cursor is a position, whether or not its account still exists.
    const anywhere = await listAccounts(
      `?cursor=${junk(`2000-01-01T00:00:00.000000Z|${randomUUID()}`)}`,
    );
    expect(anywhere).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
  });

  it('guards both lists: 401 without the admin token or with a wrong one', async () => {
    const account = await createAccount();
    for (const path of ['/admin/v1/accounts', `/admin/v1/accounts/${account.id}/api-keys`]) {
      expect(await call(`${gw.url}${path}`)).toMatchObject({
        status: 401,
        body: { code: 401, error: 'Missing Authorization header' },
      });
      expect(
        await call(`${gw.url}${path}`, { headers: admin(`${TEST_ADMIN_TOKEN}x`) }),
      ).toMatchObject({ status: 401, body: { code: 401, error: 'Invalid admin token' } });
    }
    // The guard answers before the query is validated.
    expect((await call(`${gw.url}/admin/v1/accounts?limit=0`)).status).toBe(401);
  });

  it("lists an account's keys newest first, with names, settings, revocation and use times, never the key or its hash", async () => {
    const account = await createAccount();
    expect((await listKeys(account.id)).body).toEqual({ data: [] });

    const issued: { id: string; key: string }[] = [];
    for (const body of [{ name: 'ci' }, {}, { name: 'console' }]) {
      const response = await call(`${gw.url}/admin/v1/accounts/${account.id}/api-keys`, {
        method: 'POST',
        headers: admin(),
        body,
      });
      expect(response.status).toBe(201);
      issued.push(response.body as { id: string; key: string });
    }
    const revoked = await call(`${gw.url}/admin/v1/api-keys/${issued[1].id}`, {
      method: 'DELETE',
      headers: admin(),
    });
    expect(revoked.status).toBe(200);
    await db.query(
      `UPDATE accounts.api_keys SET last_used_at = '2030-01-02T03:04:05.678Z' WHERE id = $1`,
      [issued[2].id],
    );
    // Another account's key never shows.
    const other = await createAccount();
    await call(`${gw.url}/admin/v1/accounts/${other.id}/api-keys`, {
      method: 'POST',
      headers: admin(),
      body: { name: 'other' },
    });

    const response = await listKeys(account.id);
    expect(response.status).toBe(200);
    const keys = (response.body as { data: ApiKey[] }).data;
    const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(keys).toEqual([
      {
        id: issued[2].id,
        name: 'console',
        prefix: expect.stringMatching(/^gh_/),
        status: 'active',
        allowed_models: null,
        spend_limit: null,
        spent: 0,
        expires_at: null,
        scopes: null,
        created_at: iso,
        revoked_at: null,
        last_used_at: '2030-01-02T03:04:05.678Z',
      },
      {
        id: issued[1].id,
        name: null,
        prefix: expect.stringMatching(/^gh_/),
        status: 'revoked',
        allowed_models: null,
        spend_limit: null,
        spent: 0,
        expires_at: null,
        scopes: null,
        created_at: iso,
        revoked_at: iso,
        last_used_at: null,
      },
      {
        id: issued[0].id,
        name: 'ci',
        prefix: expect.stringMatching(/^gh_/),
        status: 'active',
        allowed_models: null,
        spend_limit: null,
        spent: 0,
        expires_at: null,
        scopes: null,
        created_at: iso,
        revoked_at: null,
        last_used_at: null,
      },
    ]);
    const created = keys.map((k) => Date.parse(k.created_at));
    expect([...created].sort((x, y) => y - x)).toEqual(created);
    const revokedAt = Date.parse(keys[1].revoked_at as string);
    expect(revokedAt).toBeGreaterThanOrEqual(created[1]);
    const [row] = await db.query(`SELECT revoked_at FROM accounts.api_keys WHERE id = $1`, [
      issued[1].id,
    ]);
    expect(keys[1].revoked_at).toBe((row.revoked_at as Date).toISOString());

    const hashes: { key_hash: string; prefix: string }[] = await db.query(
      `SELECT key_hash, prefix FROM accounts.api_keys WHERE account_id = $1`,
      [account.id],
    );
    for (const { key } of issued) expect(response.text).not.toContain(key);
    // The prefix is shown to recognise a key (issue 37); never the key or its hash.
    for (const { key_hash, prefix } of hashes) {
      expect(response.text).not.toContain(key_hash);
      expect(keys.map((k) => k.prefix)).toContain(prefix);
    }
    expect(response.text).not.toMatch(/"(key|key_hash|hash)"/);
  });

  it('answers 404 for the keys of an unknown or malformed account id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid'])
      expect(await listKeys(id)).toMatchObject({
        status: 404,
        body: { code: 404, error: 'Not found' },
      });
  });
});
