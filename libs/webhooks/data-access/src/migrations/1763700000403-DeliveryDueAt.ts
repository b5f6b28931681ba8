import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery the dispatcher claims from the table itself (decision 0141):
 * `due_at` is when its next attempt may start; NULL: nothing to claim
 * (delivered, abandoned, or driven by a queue job: a `start` event, a replay,
 * rows from before this migration). The partial index holds only the
 * deliveries with an attempt ahead of them. `claimed_until` is when the claim
 * of a dispatcher making the attempt lapses; it is in no index, and pages keep
 * room (fillfactor), so a claim updates its row in place (a HOT update) instead
 * of adding an entry to every index. `request_id` is the request that created
 * the task, for the log lines of its attempts (a queue job carried it).
 */
export class DeliveryDueAt1763700000403 implements MigrationInterface {
  name = 'DeliveryDueAt1763700000403';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhooks.deliveries ADD COLUMN due_at timestamptz,
         ADD COLUMN claimed_until timestamptz, ADD COLUMN request_id text`,
    );
    await q.query(`ALTER TABLE webhooks.deliveries SET (fillfactor = 70)`);
    await q.query(
      `CREATE INDEX deliveries_due ON webhooks.deliveries (due_at) WHERE due_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhooks.deliveries_due`);
    await q.query(`ALTER TABLE webhooks.deliveries RESET (fillfactor)`);
    await q.query(
      `ALTER TABLE webhooks.deliveries
         DROP COLUMN due_at, DROP COLUMN claimed_until, DROP COLUMN request_id`,
    );
  }
}
