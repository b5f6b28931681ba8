import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator's optional cap on an account's tasks running at once (issue 36):
 * NULL, the default, is no cap (the interface promises none); set, the fair
 * stage keeps the account's further tasks waiting aside while that many run.
 * A nullable column without a default: adding it rewrites no row, and the
 * previous release's code never reads it (forward-only, decision 0066).
 */
export class AddAccountMaxConcurrentTasks1763700000103 implements MigrationInterface {
  name = 'AddAccountMaxConcurrentTasks1763700000103';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE accounts.accounts
        ADD COLUMN max_concurrent_tasks integer NULL
          CONSTRAINT accounts_max_concurrent_tasks_positive CHECK (max_concurrent_tasks > 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts.accounts DROP COLUMN max_concurrent_tasks`);
  }
}
