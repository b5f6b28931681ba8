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
}
