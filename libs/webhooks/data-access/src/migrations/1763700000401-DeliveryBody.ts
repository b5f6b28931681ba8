import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook body lives with its delivery (decision 0105): the run's terminal
 * statement writes it once, every attempt sends those bytes, and the queue
 * jobs carry ids only. Deliveries opened by older jobs have none (their jobs
 * carry the body).
 */
export class DeliveryBody1763700000401 implements MigrationInterface {
  name = 'DeliveryBody1763700000401';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.deliveries ADD COLUMN body text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.deliveries DROP COLUMN body`);
  }
}
