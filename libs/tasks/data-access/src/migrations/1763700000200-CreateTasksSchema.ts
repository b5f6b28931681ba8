import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tasks and the transactional outbox. Every status write is a conditional
 * UPDATE (see task-lifecycle.ts); the outbox row is written in the same
 * transaction as the state change it announces, and a relay moves it to BullMQ.
 */
export class CreateTasksSchema1763700000200 implements MigrationInterface {
  name = 'CreateTasksSchema1763700000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS tasks`);
    await q.query(`
      CREATE TABLE tasks.tasks (
        id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id       uuid NOT NULL,
        model            text NOT NULL,
        channel          text NOT NULL,
        category         text NOT NULL,
        status           text NOT NULL DEFAULT 'created'
                         CHECK (status IN ('created', 'processing', 'completed', 'failed', 'deleted')),
        input            jsonb NOT NULL,
        webhook_url      text,
        output_prefix    text,
        price_units      bigint NOT NULL CHECK (price_units >= 0),
        code             integer,
        error            text,
        outputs          jsonb,
        output_keys      jsonb,
        timings          jsonb,
        attempt          integer NOT NULL DEFAULT 0,
        time_limit_ms    integer NOT NULL,
        created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
        started_at       timestamptz,
        finished_at      timestamptz,
        deleted_at       timestamptz,
        idempotency_key  text,
        request_hash     text,
        CONSTRAINT terminal_has_code CHECK (status NOT IN ('completed', 'failed') OR code IS NOT NULL)
      )`);
    await q.query(
      `CREATE INDEX tasks_account_created ON tasks.tasks (account_id, created_at DESC)`,
    );
    // Estimated duration: the last N completed runs of one model and channel.
    await q.query(
      `CREATE INDEX tasks_estimate ON tasks.tasks (model, channel, finished_at DESC) WHERE status = 'completed'`,
    );
    // Sweeper: non-terminal tasks by age.
    await q.query(
      `CREATE INDEX tasks_open ON tasks.tasks (created_at) WHERE status IN ('created', 'processing')`,
    );
    // Idempotency-Key (per account, 24 h window checked by the use-case).
    await q.query(
      `CREATE UNIQUE INDEX tasks_idempotency ON tasks.tasks (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE tasks.outbox (
        id          bigserial PRIMARY KEY,
        job_name    text NOT NULL,
        job_id      text NOT NULL,
        payload     jsonb NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA tasks CASCADE`);
  }
}
