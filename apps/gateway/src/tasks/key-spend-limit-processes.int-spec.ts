import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import {
  type BuiltPlatform,
  type LocalPlatform,
  startBuiltPlatform,
  startLocalPlatform,
} from '@genhub/testing';

/**
 * The key spend limit across two gateway processes (issue 37): the built gateway twice, as
 * two replicas run it, on one database and one Redis. 1,000 submits spread over both against
 * a key whose daily limit covers 37 simulator tasks: exactly 37 accepted and reserved.
 */
describe('key spend limits across two gateway processes (built apps, PostgreSQL + Redis)', () => {
  const suite = 'key-spend-processes';
  let platform: LocalPlatform;
  let second: BuiltPlatform;
  let db: DataSource;
  const PRICE = 1000;
  const K = 37;

  beforeAll(async () => {
    platform = await startLocalPlatform(suite, {}, { apps: ['gateway'] });
    // The second replica: the same configuration as the first, its own port.
    second = await startBuiltPlatform(['gateway'], `${suite}-2`, {
      ...process.env,
      DATABASE_URL: platform.databaseUrl,
      QUEUE_PREFIX: platform.queuePrefix,
      ADMIN_TOKEN: platform.adminToken,
      API_KEY_PEPPER: `${suite}-test-pepper`,
      STORAGE_DIR: join(platform.dir, 'objects'),
      PUBLIC_BASE_URL: platform.gateway,
      LOG_LEVEL: 'silent',
      SHUTDOWN_GRACE_MS: '2000',
    });
    db = new DataSource(dataSourceOptions({ url: platform.databaseUrl }));
    await db.initialize();
  }, 300_000);
  afterAll(async () => {
    await db?.destroy();
    await second?.stop();
    await platform?.stop();
  }, 60_000);

  it('1,000 submits over both processes: exactly 37 accepted, 37 reservations, the rest refused with nothing written', async () => {
    const key = await platform.accountWithKey(100);
    await db.query(
      `UPDATE accounts.api_keys SET spend_limit_units = $1, spend_period = 'day'
        WHERE prefix = $2`,
      [K * PRICE, key.slice(0, 11)],
    );
    const [{ id: keyId, account_id: accountId }]: { id: string; account_id: string }[] =
      await db.query(`SELECT id, account_id FROM accounts.api_keys WHERE prefix = $1`, [
        key.slice(0, 11),
      ]);
    const bases = [platform.gateway, second.url('gateway')];
    const submit = async (base: string) => {
      const response = await fetch(`${base}/v1/local/simulator/test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'limited', duration_ms: 10 }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    // A gateway whose pool of connections stays busy for a second sheds the request with the
    // catalogue's 503 "please retry" (decision 0022): a client retries it, and so does this one.
    // It must have written nothing, which the counts below check.
    const shed: unknown[] = [];
    const answers = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        for (let attempt = 1; ; attempt++) {
          const answer = await submit(bases[i % 2]);
          if (answer.status !== 503 || attempt === 5) return answer;
          shed.push(answer.body);
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        }
      }),
    );
    for (const body of shed)
      expect(body).toEqual({ code: 503, error: 'Service temporarily unavailable, please retry' });
    expect(answers.filter((a) => a.status === 200)).toHaveLength(K);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect(refused).toEqual({
        status: 402,
        body: {
          code: 402,
          error: {
            code: 1301,
            error:
              'API key spend limit reached. Limit: $0.037 per day, spent: $0.037, required: $0.001.',
          },
        },
      });
    const [row]: { tasks: number; open: number; reserved: number; used: number }[] = await db.query(
      `SELECT (SELECT count(*)::int FROM tasks.tasks WHERE account_id = $1) AS tasks,
                (SELECT count(*)::int FROM billing.reservations
                  WHERE account_id = $1 AND api_key_id = $2 AND state = 'open') AS open,
                (SELECT reserved_units FROM billing.balances WHERE account_id = $1) AS reserved,
                (SELECT used_units FROM billing.key_spend WHERE key_id = $2) AS used`,
      [accountId, keyId],
    );
    expect(row).toEqual({ tasks: K, open: K, reserved: K * PRICE, used: K * PRICE });
  }, 120_000);
});
