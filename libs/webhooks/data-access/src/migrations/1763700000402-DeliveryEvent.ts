import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A task may have more than one delivery, one per event (decision 0137): the
 * terminal one (`completed`, every delivery so far) and, for a Replicate task
 * that asked for it, `start` when its first run claimed it. The key becomes
 * (task, event); the attempts follow their delivery. Everything keyed by task
 * that means the task's end (listings, replay) reads `completed`.
 */
export class DeliveryEvent1763700000402 implements MigrationInterface {
  name = 'DeliveryEvent1763700000402';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.attempts DROP CONSTRAINT attempts_task_id_fkey`);
    await q.query(`ALTER TABLE webhooks.attempts DROP CONSTRAINT attempts_once`);
    await q.query(`ALTER TABLE webhooks.deliveries DROP CONSTRAINT deliveries_pkey`);
    await q.query(`
      ALTER TABLE webhooks.deliveries
        ADD COLUMN event text NOT NULL DEFAULT 'completed' CHECK (event IN ('start', 'completed')),
        ADD CONSTRAINT deliveries_pkey PRIMARY KEY (task_id, event)`);
    await q.query(`
      ALTER TABLE webhooks.attempts
        ADD COLUMN event text NOT NULL DEFAULT 'completed',
        ADD CONSTRAINT attempts_once UNIQUE (task_id, event, attempt),
        ADD CONSTRAINT attempts_delivery_fkey FOREIGN KEY (task_id, event)
          REFERENCES webhooks.deliveries (task_id, event) ON DELETE CASCADE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhooks.deliveries WHERE event <> 'completed'`);
    await q.query(`ALTER TABLE webhooks.attempts DROP CONSTRAINT attempts_delivery_fkey`);
    await q.query(`ALTER TABLE webhooks.attempts DROP CONSTRAINT attempts_once`);
    await q.query(`ALTER TABLE webhooks.attempts DROP COLUMN event`);
    await q.query(`ALTER TABLE webhooks.deliveries DROP CONSTRAINT deliveries_pkey`);
    await q.query(`
      ALTER TABLE webhooks.deliveries DROP COLUMN event,
        ADD CONSTRAINT deliveries_pkey PRIMARY KEY (task_id)`);
    await q.query(`
      ALTER TABLE webhooks.attempts
        ADD CONSTRAINT attempts_once UNIQUE (task_id, attempt),
        ADD CONSTRAINT attempts_task_id_fkey FOREIGN KEY (task_id)
          REFERENCES webhooks.deliveries (task_id) ON DELETE CASCADE`);
  }
}
