import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook deliveries (one per task that asked for a webhook) and every
 * attempt made for them. The delivery's status moves only forward, by
 * conditional updates: pending → delivered | abandoned.
 */
export class CreateWebhooksSchema1763700000400 implements MigrationInterface {
  name = 'CreateWebhooksSchema1763700000400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS webhooks`);
    await q.query(`
      CREATE TABLE webhooks.deliveries (
        task_id       uuid PRIMARY KEY,
        account_id    uuid NOT NULL,
        url           text NOT NULL,
        status        text NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'delivered', 'abandoned')),
        attempts      integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now(),
        delivered_at  timestamptz
      )`);
    await q.query(`CREATE INDEX deliveries_by_account ON webhooks.deliveries (account_id)`);
    await q.query(`
      CREATE TABLE webhooks.attempts (
        id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id      uuid NOT NULL REFERENCES webhooks.deliveries (task_id) ON DELETE CASCADE,
        attempt      integer NOT NULL CHECK (attempt >= 1),
        started_at   timestamptz NOT NULL,
        duration_ms  integer NOT NULL CHECK (duration_ms >= 0),
        status_code  integer,
        error        text,
        CONSTRAINT attempts_once UNIQUE (task_id, attempt)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA IF EXISTS webhooks CASCADE`);
  }
}
