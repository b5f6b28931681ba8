import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The form of a task's webhook (decision 0137): null is genhub's own payload;
 * `{"kind": "replicate", "base_url": …, "events": […]}` is a prediction
 * submitted through the Replicate-compatible API, whose delivery body is the
 * Replicate prediction object, sent only for the events it asked for.
 */
export class TaskWebhookFormat1763700000203 implements MigrationInterface {
  name = 'TaskWebhookFormat1763700000203';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks.tasks ADD COLUMN webhook_format jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks.tasks DROP COLUMN webhook_format`);
  }
}
