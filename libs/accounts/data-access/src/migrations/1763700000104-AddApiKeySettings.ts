import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a key may do beyond its account (issue 37, decision 0134), each NULL by
 * default (no limit, as every key before): the model patterns it may use, its
 * scopes, when it expires, and its spend limit (micro-units per period; the
 * spend itself is the billing domain's). Nullable columns without defaults:
 * adding them rewrites no row (forward-only, decision 0066).
 */
export class AddApiKeySettings1763700000104 implements MigrationInterface {
  name = 'AddApiKeySettings1763700000104';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE accounts.api_keys
        ADD COLUMN allowed_models text[] NULL,
        ADD COLUMN scopes text[] NULL
          CONSTRAINT api_keys_scopes_known CHECK (
            scopes <@ ARRAY['tasks:write', 'tasks:read', 'billing:read', 'files:write', 'keys:manage']),
        ADD COLUMN expires_at timestamptz NULL,
        ADD COLUMN spend_limit_units bigint NULL
          CONSTRAINT api_keys_spend_limit_positive CHECK (spend_limit_units > 0),
        ADD COLUMN spend_period text NULL
          CONSTRAINT api_keys_spend_period_known CHECK (spend_period IN ('day', 'month', 'total')),
        ADD CONSTRAINT api_keys_spend_limit_whole
          CHECK ((spend_limit_units IS NULL) = (spend_period IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE accounts.api_keys
        DROP CONSTRAINT api_keys_spend_limit_whole,
        DROP COLUMN spend_period,
        DROP COLUMN spend_limit_units,
        DROP COLUMN expires_at,
        DROP COLUMN scopes,
        DROP COLUMN allowed_models`);
  }
}
