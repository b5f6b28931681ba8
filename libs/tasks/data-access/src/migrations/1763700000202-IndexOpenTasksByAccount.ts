import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator's queue by account (`GET /admin/v1/queue/accounts`, the
 * per-account gauges; issue 36) groups the open tasks by account: with the
 * status and the creation time in this partial index, that is one index-only
 * scan in account order, never a visit of the table's finished rows.
 */
export class IndexOpenTasksByAccount1763700000202 implements MigrationInterface {
  name = 'IndexOpenTasksByAccount1763700000202';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX tasks_open_by_account ON tasks.tasks (account_id, status, created_at) WHERE status IN ('created', 'processing')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX tasks.tasks_open_by_account`);
  }
}
