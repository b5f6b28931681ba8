import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin account list (`GET /admin/v1/accounts`, decision 0116) walks the
 * accounts by (created_at, id), newest first, in keyset pages: with the id in
 * the index, a page at any depth is one index range.
 */
export class IndexAccountsNewestFirst1763700000101 implements MigrationInterface {
  name = 'IndexAccountsNewestFirst1763700000101';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX accounts_newest_first ON accounts.accounts (created_at DESC, id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX accounts.accounts_newest_first`);
  }
}
