import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import {
  apiKeyPrefix,
  generateApiKey,
  generateWebhookSecret,
  hashApiKey,
  looksLikeApiKey,
} from '../keys/api-key.util';
import { AccountPosition, AccountRepository } from './account.repository';
import { ApiKeyRepository, NO_LIMITS } from './api-key.repository';

const PEPPER = 'test-pepper-0123456789';

describe('accounts repositories (PostgreSQL)', () => {
  let dataSource: DataSource;
  let accounts: AccountRepository;
  let keys: ApiKeyRepository;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await dataSource.initialize();
    accounts = new AccountRepository(dataSource);
    keys = new ApiKeyRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  async function issue(accountId: string, name: string | null = null) {
    const plain = generateApiKey();
    const key = await keys.issueKey({
      accountId,
      name,
      prefix: apiKeyPrefix(plain),
      keyHash: hashApiKey(PEPPER, plain),
    });
    return { plain, key };
  }

  it('generates keys and secrets in the documented formats', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^gh_[A-Za-z0-9_-]{43}$/);
    expect(looksLikeApiKey(key)).toBe(true);
    expect(looksLikeApiKey(`${key}x`)).toBe(false);
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 11));
    expect(hashApiKey(PEPPER, key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(PEPPER, key)).not.toBe(hashApiKey(`${PEPPER}x`, key));
    for (let i = 0; i < 20; i++) {
      const secret = generateWebhookSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      const bytes = Buffer.from(secret.slice(6), 'base64').length;
      expect(bytes).toBeGreaterThanOrEqual(24);
      expect(bytes).toBeLessThanOrEqual(32);
    }
  });

  it('creates an active account and finds it; malformed or unknown ids are unknown', async () => {
    const account = await accounts.createAccount({ currency: 'CNY', accountLevel: 'Gold' });
    expect(account).toMatchObject({ currency: 'CNY', accountLevel: 'Gold', status: 'active' });
    expect(account.webhookSecret).toMatch(/^whsec_/);
    expect(await accounts.findAccount(account.id)).toEqual(account);
    expect(await accounts.findWebhookSecret(account.id)).toBe(account.webhookSecret);
    expect(await accounts.findAccount(randomUUID())).toBeUndefined();
    expect(await accounts.findAccount('not-a-uuid')).toBeUndefined();
    expect(await accounts.setStatus('nope', 'suspended')).toBeUndefined();
  });

  it('changes the level and the cap; null removes the cap; the database refuses a cap below 1', async () => {
    const account = await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
    expect(account.maxConcurrentTasks).toBeNull();
    const { plain } = await issue(account.id);

    const capped = await accounts.updateSettings(account.id, { maxConcurrentTasks: 3 });
    expect(capped).toMatchObject({ accountLevel: 'Bronze', maxConcurrentTasks: 3 });
    expect(capped?.updatedAt.getTime()).toBeGreaterThan(account.updatedAt.getTime());
    // What authentication reads carries the cap with the level.
    expect(await keys.findCredentialByHash(hashApiKey(PEPPER, plain))).toMatchObject({
      accountLevel: 'Bronze',
      maxConcurrentTasks: 3,
    });

    // A field left out is kept; the same values again leave updated_at alone.
    const gold = await accounts.updateSettings(account.id, { accountLevel: 'Gold' });
    expect(gold).toMatchObject({ accountLevel: 'Gold', maxConcurrentTasks: 3 });
    const same = await accounts.updateSettings(account.id, {
      accountLevel: 'Gold',
      maxConcurrentTasks: 3,
    });
    expect(same?.updatedAt).toEqual(gold?.updatedAt);
    expect(await accounts.updateSettings(account.id, {})).toEqual(same);

    const cleared = await accounts.updateSettings(account.id, { maxConcurrentTasks: null });
    expect(cleared).toMatchObject({ accountLevel: 'Gold', maxConcurrentTasks: null });
    expect(await accounts.findAccount(account.id)).toEqual(cleared);

    await expect(accounts.updateSettings(account.id, { maxConcurrentTasks: 0 })).rejects.toThrow(
      /accounts_max_concurrent_tasks_positive/,
    );
    expect(await accounts.updateSettings(randomUUID(), { maxConcurrentTasks: 1 })).toBeUndefined();
    expect(await accounts.updateSettings('not-a-uuid', { maxConcurrentTasks: 1 })).toBeUndefined();
  });

  it('stores only the hash, finds live keys by hash, and revokes idempotently', async () => {
    const account = await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
    const { plain, key } = await issue(account.id, 'ci');
    const [row] = await dataSource.query(`SELECT * FROM accounts.api_keys WHERE id = $1`, [key.id]);
    expect(JSON.stringify(row)).not.toContain(plain);
    expect(row.prefix).toBe(plain.slice(0, 11));

    expect(await keys.findCredentialByHash(hashApiKey(PEPPER, plain))).toEqual({
      keyId: key.id,
      keyPrefix: key.prefix,
      accountId: account.id,
      currency: 'USD',
      accountLevel: 'Bronze',
      maxConcurrentTasks: null,
      status: 'active',
      limits: NO_LIMITS,
    });
    await accounts.setStatus(account.id, 'suspended');
    expect(await keys.findCredentialByHash(hashApiKey(PEPPER, plain))).toMatchObject({
      status: 'suspended',
    });

    const revoked = await keys.revokeKey(key.id);
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    const again = await keys.revokeKey(key.id);
    expect(again?.revokedAt).toEqual(revoked?.revokedAt);
    expect(await keys.findCredentialByHash(hashApiKey(PEPPER, plain))).toBeUndefined();
    expect(await keys.revokeKey(randomUUID())).toBeUndefined();
  });

  it('finds live keys by id, with their account status (event streams re-check them)', async () => {
    const account = await accounts.createAccount({ currency: 'USD', accountLevel: 'Silver' });
    const kept = await issue(account.id);
    const gone = await issue(account.id);
    await keys.revokeKey(gone.key.id);
    const live = await keys.findLiveKeys([kept.key.id, gone.key.id, randomUUID(), 'not-a-uuid']);
    expect(live).toEqual([
      {
        keyId: kept.key.id,
        keyPrefix: kept.key.prefix,
        accountId: account.id,
        currency: 'USD',
        accountLevel: 'Silver',
        maxConcurrentTasks: null,
        status: 'active',
        limits: NO_LIMITS,
      },
    ]);
    await accounts.setStatus(account.id, 'suspended');
    expect(await keys.findLiveKeys([kept.key.id])).toMatchObject([{ status: 'suspended' }]);
    expect(await keys.findLiveKeys([])).toEqual([]);
  });

  it("stores a key's limits, changes them (absent kept, null cleared) and only on its own live key (issue 37)", async () => {
    const account = await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
    const plain = generateApiKey();
    const expiresAt = new Date('2030-01-01T00:00:00.000Z');
    const key = await keys.issueKey({
      accountId: account.id,
      name: 'batch',
      prefix: apiKeyPrefix(plain),
      keyHash: hashApiKey(PEPPER, plain),
      limits: {
        allowedModels: ['local/*'],
        scopes: ['tasks:read'],
        expiresAt,
        spendLimit: { amountUnits: 5_000_000, period: 'day' },
      },
    });
    expect(key).toMatchObject({
      allowedModels: ['local/*'],
      scopes: ['tasks:read'],
      expiresAt,
      spendLimit: { amountUnits: 5_000_000, period: 'day' },
    });
    expect((await keys.findCredentialByHash(hashApiKey(PEPPER, plain)))?.limits).toEqual({
      allowedModels: ['local/*'],
      scopes: ['tasks:read'],
      expiresAt,
      spendLimit: { amountUnits: 5_000_000, period: 'day' },
    });

    const changed = await keys.updateKey(account.id, key.id, { spendLimit: null, scopes: null });
    expect(changed).toMatchObject({
      name: 'batch',
      allowedModels: ['local/*'],
      scopes: null,
      expiresAt,
      spendLimit: null,
    });
    expect(await keys.updateKey(account.id, key.id, {})).toMatchObject({ id: key.id });
    const other = await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
    expect(await keys.updateKey(other.id, key.id, { name: 'x' })).toBeUndefined();
    // The schema refuses a scope it does not know.
    await expect(
      keys.updateKey(account.id, key.id, { scopes: ['tasks:delete' as 'tasks:read'] }),
    ).rejects.toThrow(/api_keys_scopes_known/);
    expect(await keys.revokeKey(key.id, other.id)).toBeUndefined();
    expect(await keys.revokeKey(key.id, account.id)).toMatchObject({ id: key.id });
    expect(await keys.updateKey(account.id, key.id, { name: 'x' })).toBeUndefined();
  });

  it('never shows a key to another account', async () => {
    const a = await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
    const b = await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
    const { key } = await issue(a.id);
    expect(await keys.findOwnedKey(a.id, key.id)).toMatchObject({ id: key.id });
    expect(await keys.findOwnedKey(b.id, key.id)).toBeUndefined();
    expect(await keys.listKeysOfAccount(b.id)).toEqual([]);
    expect((await keys.listKeysOfAccount(a.id)).map((k) => k.id)).toEqual([key.id]);
  });

  it("lists an account's keys newest first, revoked ones included", async () => {
    const account = await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
    const older = await issue(account.id, 'older');
    const newer = await issue(account.id);
    await keys.revokeKey(older.key.id);
    expect(
      (await keys.listKeysOfAccount(account.id)).map((k) => [k.id, k.name, k.revokedAt !== null]),
    ).toEqual([
      [newer.key.id, null, false],
      [older.key.id, 'older', true],
    ]);
  });

  it('pages accounts newest first by (created_at, id), filtered by status', async () => {
    // Accounts of one instant: the id breaks the tie, so a page boundary inside it loses none.
    const ids: string[] = [];
    await dataSource.transaction(async (manager) => {
      for (let i = 0; i < 5; i++)
        ids.push(
          (await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' }, manager)).id,
        );
    });
    const mine = new Set(ids);
    const expected = [...ids].sort().reverse();
    const seen: string[] = [];
    let after: AccountPosition | undefined;
    for (;;) {
      const rows = await accounts.pageAccounts({ after, limit: 2 });
      seen.push(...rows.map((r) => r.account.id));
      if (rows.length < 2 || expected.every((id) => seen.includes(id))) break;
      after = rows[rows.length - 1].position;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => mine.has(id))).toEqual(expected);

    await accounts.setStatus(ids[0], 'suspended');
    const suspended = await accounts.pageAccounts({ status: 'suspended', limit: 1000 });
    expect(suspended.every((r) => r.account.status === 'suspended')).toBe(true);
    expect(suspended.map((r) => r.account.id)).toContain(ids[0]);
    expect(suspended[0].position.createdAt).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
    );
  });

  it('writes last_used_at at most once a minute', async () => {
    const account = await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
    const { key } = await issue(account.id);
    expect(await keys.touchLastUsed(key.id)).toBe(true);
    expect(await keys.touchLastUsed(key.id)).toBe(false);
    await dataSource.query(
      `UPDATE accounts.api_keys SET last_used_at = now() - interval '61 seconds' WHERE id = $1`,
      [key.id],
    );
    expect(await keys.touchLastUsed(key.id)).toBe(true);
  });
});
