import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Currency } from '@genhub/money';
import { AccountLevel, AccountStatus, ApiKeyLimits, SpendLimit, StoredApiKey } from '../rows';
import type { ApiKeyScope, SpendPeriod } from '@genhub/contracts/server';
import { isUUID } from 'class-validator';

interface ApiKeyRow extends LimitColumns {
  id: string;
  account_id: string;
  name: string | null;
  prefix: string;
  key_hash: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** The key's limits as stored: a spend limit only with both of its columns. */
interface LimitColumns {
  allowed_models: string[] | null;
  scopes: ApiKeyScope[] | null;
  expires_at: Date | null;
  spend_limit_units: number | null;
  spend_period: SpendPeriod | null;
}

function limitsFromRow(row: LimitColumns): ApiKeyLimits {
  const spendLimit: SpendLimit | null =
    row.spend_limit_units !== null && row.spend_period !== null
      ? { amountUnits: row.spend_limit_units, period: row.spend_period }
      : null;
  return {
    allowedModels: row.allowed_models,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    spendLimit,
  };
}

/** A live key joined with its account, as authentication reads it. */
interface CredentialRow extends LimitColumns {
  id: string;
  prefix: string;
  account_id: string;
  currency: Currency;
  account_level: AccountLevel;
  max_concurrent_tasks: number | null;
  status: AccountStatus;
}

const LIVE_CREDENTIALS = `SELECT k.id, k.prefix, k.account_id, a.currency, a.account_level,
       a.max_concurrent_tasks, a.status, k.allowed_models, k.scopes, k.expires_at,
       k.spend_limit_units, k.spend_period
  FROM accounts.api_keys k JOIN accounts.accounts a ON a.id = k.account_id
 WHERE k.revoked_at IS NULL`;

function credentialFromRow(row: CredentialRow): KeyCredential {
  return {
    keyId: row.id,
    keyPrefix: row.prefix,
    accountId: row.account_id,
    currency: row.currency,
    accountLevel: row.account_level,
    maxConcurrentTasks: row.max_concurrent_tasks,
    status: row.status,
    limits: limitsFromRow(row),
  };
}

function keyFromRow(row: ApiKeyRow): StoredApiKey {
  return Object.assign(new StoredApiKey(), {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    prefix: row.prefix,
    keyHash: row.key_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    ...limitsFromRow(row),
  });
}

/** What authentication needs to know about a live key: one indexed read. */
export interface KeyCredential {
  keyId: string;
  keyPrefix: string;
  accountId: string;
  currency: Currency;
  accountLevel: AccountLevel;
  /** The operator's cap on the account's tasks running at once; null: none (issue 36). */
  maxConcurrentTasks: number | null;
  status: AccountStatus;
  /** The key's own limits (issue 37); an expired key is still found (it answers its own 401). */
  limits: ApiKeyLimits;
}

/** A key with no limits: every model, every scope, no expiry, no spend limit. */
export const NO_LIMITS: ApiKeyLimits = {
  allowedModels: null,
  scopes: null,
  expiresAt: null,
  spendLimit: null,
};

/** What a PATCH changes: each field absent (undefined) is kept, null clears it. */
export interface ApiKeyChange {
  name?: string | null;
  allowedModels?: string[] | null;
  scopes?: ApiKeyScope[] | null;
  expiresAt?: Date | null;
  spendLimit?: SpendLimit | null;
}

/** How often at most `last_used_at` is written for one key. */
export const LAST_USED_RESOLUTION_SECONDS = 60;

@Injectable()
export class ApiKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a new key (its hash and prefix only) with its limits (none given: none). */
  async issueKey(
    input: {
      accountId: string;
      name: string | null;
      prefix: string;
      keyHash: string;
      limits?: ApiKeyLimits;
    },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StoredApiKey> {
    const limits = input.limits ?? NO_LIMITS;
    const rows: ApiKeyRow[] = await manager.query(
      `INSERT INTO accounts.api_keys (account_id, name, prefix, key_hash, allowed_models, scopes,
         expires_at, spend_limit_units, spend_period)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        input.accountId,
        input.name,
        input.prefix,
        input.keyHash,
        limits.allowedModels,
        limits.scopes,
        limits.expiresAt,
        limits.spendLimit?.amountUnits ?? null,
        limits.spendLimit?.period ?? null,
      ],
    );
    return keyFromRow(rows[0]);
  }

  /**
   * Changes a live key of the account (PATCH semantics: an absent field is
   * unchanged, null clears it). Undefined when the account has no such live key
   * (another account's key and a revoked one are as unknown as a missing one).
   */
  async updateKey(
    accountId: string,
    keyId: string,
    change: ApiKeyChange,
  ): Promise<StoredApiKey | undefined> {
    if (!isUUID(accountId) || !isUUID(keyId)) return undefined;
    const sets: string[] = [];
    const params: unknown[] = [accountId, keyId];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (change.name !== undefined) set('name', change.name);
    if (change.allowedModels !== undefined) set('allowed_models', change.allowedModels);
    if (change.scopes !== undefined) set('scopes', change.scopes);
    if (change.expiresAt !== undefined) set('expires_at', change.expiresAt);
    if (change.spendLimit !== undefined) {
      set('spend_limit_units', change.spendLimit?.amountUnits ?? null);
      set('spend_period', change.spendLimit?.period ?? null);
    }
    // Nothing to change still answers the key (and still refuses a revoked one).
    if (!sets.length) sets.push('name = name');
    const [rows]: [ApiKeyRow[], number] = await this.dataSource.query(
      `UPDATE accounts.api_keys SET ${sets.join(', ')}
        WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING *`,
      params,
    );
    return rows[0] ? keyFromRow(rows[0]) : undefined;
  }

  /** The live (not revoked) key with this hash and its account; undefined otherwise. */
  async findCredentialByHash(keyHash: string): Promise<KeyCredential | undefined> {
    const rows: CredentialRow[] = await this.dataSource.query(
      `${LIVE_CREDENTIALS} AND k.key_hash = $1`,
      [keyHash],
    );
    return rows[0] ? credentialFromRow(rows[0]) : undefined;
  }

  /**
   * The live (not revoked) keys among `keyIds`, with their accounts (status
   * included): one indexed read, never cached. Malformed ids are skipped.
   */
  async findLiveKeys(keyIds: readonly string[]): Promise<KeyCredential[]> {
    const ids = [...new Set(keyIds)].filter((id) => isUUID(id));
    if (!ids.length) return [];
    const rows: CredentialRow[] = await this.dataSource.query(
      `${LIVE_CREDENTIALS} AND k.id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map(credentialFromRow);
  }

  /** One of the account's keys; a key of another account is as unknown as a missing one. */
  async findOwnedKey(accountId: string, keyId: string): Promise<StoredApiKey | undefined> {
    if (!isUUID(accountId) || !isUUID(keyId)) return undefined;
    const rows: ApiKeyRow[] = await this.dataSource.query(
      `SELECT * FROM accounts.api_keys WHERE account_id = $1 AND id = $2`,
      [accountId, keyId],
    );
    return rows[0] ? keyFromRow(rows[0]) : undefined;
  }

  /** The account's keys, revoked ones included, newest first. */
  async listKeysOfAccount(accountId: string): Promise<StoredApiKey[]> {
    if (!isUUID(accountId)) return [];
    const rows: ApiKeyRow[] = await this.dataSource.query(
      `SELECT * FROM accounts.api_keys WHERE account_id = $1 ORDER BY created_at DESC, id DESC`,
      [accountId],
    );
    return rows.map(keyFromRow);
  }

  /**
   * Revokes a key (idempotent: the first revocation time is kept). Returns the
   * key, or undefined when no such key exists (of `accountId`, when given).
   */
  async revokeKey(keyId: string, accountId?: string): Promise<StoredApiKey | undefined> {
    if (!isUUID(keyId) || (accountId !== undefined && !isUUID(accountId))) return undefined;
    // An UPDATE answers [rows, affected count]. With an account: only a key of that account.
    const [rows]: [ApiKeyRow[], number] = await this.dataSource.query(
      `UPDATE accounts.api_keys SET revoked_at = coalesce(revoked_at, now())
        WHERE id = $1 AND ($2::uuid IS NULL OR account_id = $2::uuid) RETURNING *`,
      [keyId, accountId ?? null],
    );
    return rows[0] ? keyFromRow(rows[0]) : undefined;
  }

  /**
   * Records use, at most once per LAST_USED_RESOLUTION_SECONDS (the condition
   * makes a concurrent or early call a no-op). Returns whether it wrote.
   */
  async touchLastUsed(keyId: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(
      `UPDATE accounts.api_keys SET last_used_at = now()
        WHERE id = $1 AND revoked_at IS NULL
          AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
      [keyId, LAST_USED_RESOLUTION_SECONDS],
    )) as [unknown, number];
    return affected > 0;
  }
}
