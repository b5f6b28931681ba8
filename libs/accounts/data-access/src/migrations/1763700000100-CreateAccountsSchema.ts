import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts and their API keys. A key is stored only as an HMAC-SHA256 of the
 * plain key (keyed by API_KEY_PEPPER); `prefix` is its first characters, safe
 * to show in logs and lists.
 */
export class CreateAccountsSchema1763700000100 implements MigrationInterface {
  name = 'CreateAccountsSchema1763700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS accounts`);
    await q.query(`
      CREATE TABLE accounts.accounts (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        currency        text NOT NULL CHECK (currency IN ('USD', 'CNY')),
        account_level   text NOT NULL CHECK (account_level IN ('Bronze', 'Silver', 'Gold', 'Platinum')),
        status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
        webhook_secret  text NOT NULL CHECK (webhook_secret LIKE 'whsec\\_%'),
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE accounts.api_keys (
        id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id    uuid NOT NULL REFERENCES accounts.accounts (id) ON DELETE CASCADE,
        name          text,
        prefix        text NOT NULL,
        key_hash      text NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        revoked_at    timestamptz,
        last_used_at  timestamptz,
        CONSTRAINT api_keys_key_hash UNIQUE (key_hash)
      )`);
    await q.query(`CREATE INDEX api_keys_by_account ON accounts.api_keys (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA accounts CASCADE`);
  }
}
