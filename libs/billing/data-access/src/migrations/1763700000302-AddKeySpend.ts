import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-key spend (issue 37). Reservations and usage records name the key that
 * made them; a reservation that counted against its key's spend limit also
 * names the period it counted in. `key_spend` holds, per key and period, what
 * counts against the limit: its open reservations plus its captured charges
 * (decision 0135). The records index serves "this account's records of this
 * key by time" (billings, usage and the export filtered by key).
 */
export class AddKeySpend1763700000302 implements MigrationInterface {
  name = 'AddKeySpend1763700000302';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE billing.reservations
        ADD COLUMN api_key_id uuid NULL,
        ADD COLUMN key_period_start timestamptz NULL`);
    await q.query(`ALTER TABLE billing.records ADD COLUMN api_key_id uuid NULL`);
    await q.query(
      `CREATE INDEX records_by_account_key_time ON billing.records (account_id, api_key_id, created_at, seq)
        WHERE api_key_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE billing.key_spend (
        key_id        uuid NOT NULL,
        period_start  timestamptz NOT NULL,
        used_units    bigint NOT NULL CHECK (used_units >= 0),
        PRIMARY KEY (key_id, period_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing.key_spend`);
    await q.query(`DROP INDEX billing.records_by_account_key_time`);
    await q.query(`ALTER TABLE billing.records DROP COLUMN api_key_id`);
    await q.query(
      `ALTER TABLE billing.reservations DROP COLUMN api_key_id, DROP COLUMN key_period_start`,
    );
  }
}
