import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger. Money is bigint micro-units. `balances.balance_units` is the sum
 * of the account's records; `reserved_units` the sum of its open reservations;
 * what the account may spend is the difference. `seq`/`type_seq` number each
 * account's records so any page is an index range, however deep.
 */
export class CreateBillingSchema1763700000300 implements MigrationInterface {
  name = 'CreateBillingSchema1763700000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS billing`);
    await q.query(`
      CREATE TABLE billing.balances (
        account_id      uuid PRIMARY KEY,
        currency        text NOT NULL CHECK (currency IN ('USD', 'CNY')),
        balance_units   bigint NOT NULL DEFAULT 0,
        reserved_units  bigint NOT NULL DEFAULT 0 CHECK (reserved_units >= 0),
        record_count    bigint NOT NULL DEFAULT 0,
        topup_count     bigint NOT NULL DEFAULT 0,
        usage_count     bigint NOT NULL DEFAULT 0,
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT balance_covers_reservations CHECK (balance_units - reserved_units >= 0)
      )`);
    await q.query(`
      CREATE TABLE billing.reservations (
        task_id       uuid PRIMARY KEY,
        account_id    uuid NOT NULL,
        amount_units  bigint NOT NULL CHECK (amount_units >= 0),
        model         text NOT NULL,
        category      text NOT NULL,
        state         text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'captured', 'released')),
        created_at    timestamptz NOT NULL DEFAULT now(),
        settled_at    timestamptz
      )`);
    await q.query(
      `CREATE INDEX reservations_open_by_age ON billing.reservations (created_at) WHERE state = 'open'`,
    );
    await q.query(
      `CREATE INDEX reservations_open_by_account ON billing.reservations (account_id) WHERE state = 'open'`,
    );
    await q.query(`
      CREATE TABLE billing.records (
        id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id           uuid NOT NULL,
        seq                  bigint NOT NULL,
        type_seq             bigint NOT NULL,
        type                 text NOT NULL CHECK (type IN ('top-up', 'usage')),
        amount_units         bigint NOT NULL,
        balance_after_units  bigint NOT NULL,
        model                text,
        category             text,
        task_id              uuid UNIQUE,
        created_at           timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT records_seq UNIQUE (account_id, seq),
        CONSTRAINT records_type_seq UNIQUE (account_id, type, type_seq),
        CONSTRAINT usage_has_task CHECK ((type = 'usage') = (task_id IS NOT NULL))
      )`);
    await q.query(
      `CREATE INDEX records_by_account_time ON billing.records (account_id, created_at)`,
    );
    await q.query(`
      CREATE TABLE billing.usage_daily (
        account_id  uuid NOT NULL,
        day         date NOT NULL,
        category    text NOT NULL,
        tasks       bigint NOT NULL DEFAULT 0,
        cost_units  bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, day, category)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA billing CASCADE`);
  }
}
