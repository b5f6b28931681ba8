import type { ApiKeyScope, SpendPeriod } from '@genhub/contracts/server';

/** A row of `accounts.api_keys` (the migration is the schema; this is its shape in code). */
export class StoredApiKey {
  id!: string;
  accountId!: string;
  name!: string | null;
  /** The key's first characters (`gh_` + 8): identifies it in logs, never enough to use it. */
  prefix!: string;
  /** HMAC-SHA256(API_KEY_PEPPER, plain key), hex. */
  keyHash!: string;
  createdAt!: Date;
  revokedAt!: Date | null;
  lastUsedAt!: Date | null;
  /** Model slug patterns it may use; null: every model (issue 37). */
  allowedModels!: string[] | null;
  /** What it may do; null: the default scopes (DEFAULT_API_KEY_SCOPES). */
  scopes!: ApiKeyScope[] | null;
  /** From then on it is refused (401); null: never. */
  expiresAt!: Date | null;
  /** What its tasks and chat calls may cost per period (micro-units); null: no limit. */
  spendLimit!: SpendLimit | null;
}

/** A key's spend limit in micro-units of its account's currency. */
export interface SpendLimit {
  amountUnits: number;
  period: SpendPeriod;
}

/** What a key may do beyond its account: what authentication hands to every call. */
export interface ApiKeyLimits {
  allowedModels: string[] | null;
  scopes: ApiKeyScope[] | null;
  expiresAt: Date | null;
  spendLimit: SpendLimit | null;
}
