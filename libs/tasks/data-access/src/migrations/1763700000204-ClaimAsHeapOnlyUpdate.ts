import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A run's claim (created → processing, attempt + 1, started_at) updates its
 * row in place, a heap-only (HOT) update, instead of adding an entry to every
 * index (decision 0142). PostgreSQL makes an update HOT only when no index
 * names a column it changes, in its key or in its predicate, and the page has
 * room. So no index of `tasks.tasks` refers to `status` any more: an open task
 * is one with neither `finished_at` (set by every terminal write) nor
 * `deleted_at` (set by every deletion), a completed one has code 0. The
 * claim's new version needs room on its page; the page still receiving inserts
 * nearly always has it, so the fillfactor stays the default (80 doubled the
 * table's growth per task here and made no more claims HOT).
 *
 * The four indexes are rebuilt: on a large table, writes to it wait for each
 * build (under a second per million tasks here, decision 0142).
 */
export class ClaimAsHeapOnlyUpdate1763700000204 implements MigrationInterface {
  name = 'ClaimAsHeapOnlyUpdate1763700000204';

  async up(q: QueryRunner): Promise<void> {
    // The predicates below rely on these; every writer has set them since the schema began.
    await q.query(
      `UPDATE tasks.tasks SET deleted_at = coalesce(finished_at, created_at)
        WHERE status = 'deleted' AND deleted_at IS NULL`,
    );
    await q.query(
      `UPDATE tasks.tasks SET finished_at = coalesce(started_at, created_at)
        WHERE status IN ('completed', 'failed') AND finished_at IS NULL`,
    );
    await q.query(`DROP INDEX tasks.tasks_history`);
    await q.query(
      `CREATE INDEX tasks_history ON tasks.tasks (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
    );
    await q.query(`DROP INDEX tasks.tasks_estimate`);
    await q.query(
      `CREATE INDEX tasks_estimate ON tasks.tasks (model, channel, finished_at DESC) WHERE code = 0`,
    );
    await q.query(`DROP INDEX tasks.tasks_open`);
    await q.query(
      `CREATE INDEX tasks_open ON tasks.tasks (created_at) WHERE finished_at IS NULL AND deleted_at IS NULL`,
    );
    await q.query(`DROP INDEX tasks.tasks_open_by_account`);
    await q.query(
      `CREATE INDEX tasks_open_by_account ON tasks.tasks (account_id, created_at) WHERE finished_at IS NULL AND deleted_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX tasks.tasks_open_by_account`);
    await q.query(
      `CREATE INDEX tasks_open_by_account ON tasks.tasks (account_id, status, created_at) WHERE status IN ('created', 'processing')`,
    );
    await q.query(`DROP INDEX tasks.tasks_open`);
    await q.query(
      `CREATE INDEX tasks_open ON tasks.tasks (created_at) WHERE status IN ('created', 'processing')`,
    );
    await q.query(`DROP INDEX tasks.tasks_estimate`);
    await q.query(
      `CREATE INDEX tasks_estimate ON tasks.tasks (model, channel, finished_at DESC) WHERE status = 'completed'`,
    );
    await q.query(`DROP INDEX tasks.tasks_history`);
    await q.query(
      `CREATE INDEX tasks_history ON tasks.tasks (account_id, created_at DESC, id DESC) WHERE status <> 'deleted'`,
    );
  }
}
