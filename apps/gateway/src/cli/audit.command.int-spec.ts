import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { runAuditCommand } from './audit.command';

/** The `audit` admin command against this run's database: names a broken account, exits 1. */
describe('admin audit command', () => {
  let pg: Client;
  beforeAll(async () => {
    pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
  });
  afterAll(() => pg.end());

  async function run(): Promise<{ code: number; text: string }> {
    let text = '';
    const code = await runAuditCommand([], process.env, (t) => (text += t));
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
