import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The export walks an account's records by (created_at, seq), newest first,
 * in keyset batches: this index makes every batch an index range.
 */
export class IndexRecordsForExport1763700000301 implements MigrationInterface {
  name = 'IndexRecordsForExport1763700000301';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX records_by_account_time_seq ON billing.records (account_id, created_at, seq)`,
    );
    await q.query(`DROP INDEX billing.records_by_account_time`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX records_by_account_time ON billing.records (account_id, created_at)`,
    );
    await q.query(`DROP INDEX billing.records_by_account_time_seq`);
  }
}
