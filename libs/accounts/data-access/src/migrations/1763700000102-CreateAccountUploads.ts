import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every upload an account holds, for its quotas (decision 0129): one row per
 * stored upload or direct-upload ticket, with its size (the declared size for
 * a ticket) and when it stops counting. A ticket's row is also what makes it
 * single-use: `ticketed` → `receiving` is taken by one PUT only.
 */
export class CreateAccountUploads1763700000102 implements MigrationInterface {
  name = 'CreateAccountUploads1763700000102';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts.uploads (
        key         text PRIMARY KEY,
        account_id  uuid NOT NULL REFERENCES accounts.accounts (id) ON DELETE CASCADE,
        bytes       bigint NOT NULL CHECK (bytes >= 0),
        state       text NOT NULL CHECK (state IN ('ticketed', 'receiving', 'stored')),
        created_at  timestamptz NOT NULL,
        expires_at  timestamptz NOT NULL
      )`);
    // An account's unexpired uploads, summed (and today's counted) from the index alone.
    await q.query(
      `CREATE INDEX uploads_by_account ON accounts.uploads (account_id, expires_at) INCLUDE (bytes, created_at)`,
    );
    await q.query(`CREATE INDEX uploads_by_expiry ON accounts.uploads (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE accounts.uploads`);
  }
}
