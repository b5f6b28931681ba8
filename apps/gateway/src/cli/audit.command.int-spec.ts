import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, dropTestDatabase } from '@genhub/testing';
import { runAuditCommand } from './audit.command';

/**
 * The `audit` admin command, on a database of its own: the audit reads every
 * account, so other test files' open reservations must not be in its sight.
 */
describe('admin audit command', () => {
  let pg: Client;
  let db: { url: string; name: string };
  beforeAll(async () => {
    db = await createTestDatabase('audit');
    pg = new Client({ connectionString: db.url });
    await pg.connect();
  });
  afterAll(async () => {
    await pg.end();
    await dropTestDatabase(db.name);
  });

  async function run(): Promise<{ code: number; text: string }> {
    let text = '';
    const code = await runAuditCommand(
      [],
      { ...process.env, DATABASE_URL: db.url },
      (t) => (text += t),
    );
    return { code, text };
  }

  it('prints a summary and exits 0 when the ledger holds, names the account and exits 1 when not', async () => {
    const accountId = randomUUID();
    await pg.query(
      `INSERT INTO billing.balances (account_id, currency, balance_units, record_count, topup_count)
       VALUES ($1, 'USD', 5000, 1, 1)`,
      [accountId],
    );
    await pg.query(
      `INSERT INTO billing.records (account_id, seq, type_seq, type, amount_units, balance_after_units)
       VALUES ($1, 1, 1, 'top-up', 5000, 5000)`,
      [accountId],
    );
    const clean = await run();
    expect(clean.code).toBe(0);
    expect(clean.text).toMatch(/^ledger audit: OK — \d+ account\(s\)/);

    await pg.query(`UPDATE billing.balances SET balance_units = 6000 WHERE account_id = $1`, [
      accountId,
    ]);
    const broken = await run();
    expect(broken.code).toBe(1);
    expect(broken.text).toContain(
      `account ${accountId} (USD): sum of records 0.005000 != balance 0.006000`,
    );
    await pg.query(`UPDATE billing.balances SET balance_units = 5000 WHERE account_id = $1`, [
      accountId,
    ]);
  });
});
