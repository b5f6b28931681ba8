import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import {
  admin,
  call,
  createAccountWithKey,
  type JsonResponse,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

/**
 * A key's spend limit is checked in the submit's one statement (issue 37,
 * decision 0135): however many submits race, on however many gateways, the
 * key gets exactly what its limit covers and every other submit is refused
 * with nothing written.
 */
describe('key spend limits under concurrency (two in-process gateways, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  let other: RunningGateway;
  let db: DataSource;
  /** The simulator's price ($0.001) in micro-units. */
  const PRICE = 1000;
  const K = 37;

  beforeAll(async () => {
    [gw, other] = await Promise.all([startGateway(), startGateway()]);
    db = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await db.initialize();
  });
  afterAll(async () => {
    await Promise.all([gw.close(), other.close(), db.destroy()]);
  }, 30_000);

  /** An account with $100 and a key whose daily limit covers exactly K simulator tasks. */
  async function limitedKey(): Promise<{ accountId: string; keyId: string; key: string }> {
    const { accountId, key } = await createAccountWithKey(gw.url, 100);
    // Set before the key's first use, so no gateway has cached it without its limit.
    await db.query(
      `UPDATE accounts.api_keys SET spend_limit_units = $2, spend_period = 'day' WHERE account_id = $1`,
      [accountId, K * PRICE],
    );
    const [row]: { id: string }[] = await db.query(
      `SELECT id FROM accounts.api_keys WHERE account_id = $1`,
      [accountId],
    );
    return { accountId, keyId: row.id, key };
  }

  const submit = (base: string, key: string): Promise<JsonResponse> =>
    call(`${base}/v1/local/simulator/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: { prompt: 'limited', duration_ms: 10 },
    });

  async function written(accountId: string, keyId: string) {
    const [row]: {
      tasks: number;
      open: number;
      reserved: number;
      used: number | null;
    }[] = await db.query(
      `SELECT (SELECT count(*)::int FROM tasks.tasks WHERE account_id = $1) AS tasks,
              (SELECT count(*)::int FROM billing.reservations
                WHERE account_id = $1 AND api_key_id = $2 AND state = 'open') AS open,
              (SELECT reserved_units FROM billing.balances WHERE account_id = $1) AS reserved,
              (SELECT sum(used_units)::bigint FROM billing.key_spend WHERE key_id = $2) AS used`,
      [accountId, keyId],
    );
    return row;
  }

  const refusal = {
    code: 402,
    error: {
      code: 1301,
      error: `API key spend limit reached. Limit: $0.037 per day, spent: $0.037, required: $0.001.`,
    },
  };

  it.each([
    ['one gateway', 1],
    ['two gateways', 2],
  ])(
    '1,000 parallel submits (%s) against a limit covering 37: exactly 37 accepted, the rest 402 with nothing written',
    async (_, gateways) => {
      const { accountId, keyId, key } = await limitedKey();
      const bases = gateways === 1 ? [gw.url] : [gw.url, other.url];
      const answers = await Promise.all(
        Array.from({ length: 1000 }, (_, i) => submit(bases[i % bases.length], key)),
      );
      const accepted = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      expect(accepted).toHaveLength(K);
      expect(new Set(refused.map((a) => a.status))).toEqual(new Set([402]));
      for (const answer of refused) expect(answer.body).toEqual(refusal);
      expect(await written(accountId, keyId)).toEqual({
        tasks: K,
        open: K,
        reserved: K * PRICE,
        used: K * PRICE,
      });
      // The accepted tasks are exactly the reserved ones.
      const [{ unmatched }]: { unmatched: number }[] = await db.query(
        `SELECT count(*)::int AS unmatched FROM tasks.tasks t
          WHERE t.account_id = $1
            AND NOT EXISTS (SELECT 1 FROM billing.reservations r WHERE r.task_id = t.id)`,
        [accountId],
      );
      expect(unmatched).toBe(0);

      // The key list shows what the key spent in its period.
      const listed = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
        headers: admin(),
      });
      expect(listed.status).toBe(200);
      expect((listed.body as { data: unknown[] }).data).toEqual([
        expect.objectContaining({
          id: keyId,
          spend_limit: { amount: 0.037, period: 'day' },
          spent: 0.037,
        }),
      ]);
    },
    120_000,
  );

  it('the /api/v3 submit refuses with the flat shape; a new day gives the room back; the balance refusal still wins when it is the balance', async () => {
    const { keyId, key } = await limitedKey();
    for (let i = 0; i < K; i++) expect((await submit(gw.url, key)).status).toBe(200);
    const flat = await call(`${gw.url}/api/v3/local/simulator/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: { prompt: 'limited' },
    });
    expect(flat.status).toBe(402);
    expect(flat.body).toMatchObject({
      code: 402,
      message: refusal.error.error,
    });

    // A new UTC day is a new counter: once today's row is yesterday's, the room is back.
    await db.query(
      `UPDATE billing.key_spend SET period_start = period_start - interval '1 day' WHERE key_id = $1`,
      [keyId],
    );
    expect((await submit(other.url, key)).status).toBe(200);
    expect((await submit(gw.url, key)).status).toBe(200);

    const poor = await createAccountWithKey(gw.url, 0);
    await db.query(
      `UPDATE accounts.api_keys SET spend_limit_units = 5000, spend_period = 'month'
        WHERE account_id = $1`,
      [poor.accountId],
    );
    const broke = await submit(gw.url, poor.key);
    expect(broke.status).toBe(402);
    expect((broke.body as { error: { code: number } }).error.code).toBe(1300);
  });

  it('a key without a limit counts nothing against itself; its spent is everything since issue', async () => {
    const { accountId, key } = await createAccountWithKey(gw.url, 1);
    for (let i = 0; i < 3; i++) expect((await submit(gw.url, key)).status).toBe(200);
    const [{ keys }]: { keys: number }[] = await db.query(
      `SELECT count(*)::int AS keys FROM billing.key_spend ks
         JOIN billing.reservations r ON r.api_key_id = ks.key_id WHERE r.account_id = $1`,
      [accountId],
    );
    expect(keys).toBe(0);
    const listed = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      headers: admin(),
    });
    expect((listed.body as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ spend_limit: null, spent: 0.003 }),
    ]);
  });

  it('a limit set by PATCH on a key that already spent starts from that spend, on every gateway', async () => {
    const { accountId, key } = await createAccountWithKey(gw.url, 1);
    for (let i = 0; i < 3; i++) expect((await submit(gw.url, key)).status).toBe(200);
    const [{ id: keyId }]: { id: string }[] = await db.query(
      `SELECT id FROM accounts.api_keys WHERE account_id = $1`,
      [accountId],
    );
    const patched = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys/${keyId}`, {
      method: 'PATCH',
      headers: admin(),
      body: { spend_limit: { amount: 0.004, period: 'day' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      spend_limit: { amount: 0.004, period: 'day' },
      spent: 0.003,
    });
    // One more fits (0.004); the next is refused on the other gateway too (the change notice).
    expect((await submit(other.url, key)).status).toBe(200);
    const refused = await submit(gw.url, key);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      code: 402,
      error: {
        code: 1301,
        error:
          'API key spend limit reached. Limit: $0.004 per day, spent: $0.004, required: $0.001.',
      },
    });
    expect(await written(accountId, keyId)).toMatchObject({ used: 4 * PRICE });
  });
});
