import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The task history (`GET /api/v3/predictions`) walks an account's tasks by
 * (created_at, id), newest first, in keyset pages: with the id in the index,
 * a page at any depth is one index range. Deleted tasks never appear, so they
 * stay out of it. It replaces the (account_id, created_at) index.
 */
export class IndexTasksForHistory1763700000201 implements MigrationInterface {
  name = 'IndexTasksForHistory1763700000201';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX tasks_history ON tasks.tasks (account_id, created_at DESC, id DESC) WHERE status <> 'deleted'`,
    );
    await q.query(`DROP INDEX tasks.tasks_account_created`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX tasks_account_created ON tasks.tasks (account_id, created_at DESC)`,
    );
    await q.query(`DROP INDEX tasks.tasks_history`);
  }
}
