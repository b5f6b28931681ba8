import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { KeysetPosition } from '@genhub/database';
import type { Currency } from '@genhub/money';
import { StoredAccount, AccountLevel, AccountStatus } from '../rows';
import { generateWebhookSecret } from '../keys/api-key.util';
import { isUUID } from 'class-validator';

interface AccountRow {
  id: string;
  currency: Currency;
  account_level: AccountLevel;
  status: AccountStatus;
  max_concurrent_tasks: number | null;
  webhook_secret: string;
  created_at: Date;
  updated_at: Date;
}

/** Where a page of accounts starts: after the account with this (created_at, id), newest first. */
export type AccountPosition = KeysetPosition;

export interface AccountPageFilter {
  status?: AccountStatus;
  after?: AccountPosition;
  limit: number;
}

/** One account of a page, with its position (exact to the microsecond) for the next page. */
export interface AccountPageRow {
  account: StoredAccount;
  position: AccountPosition;
}

function accountFromRow(row: AccountRow): StoredAccount {
  return Object.assign(new StoredAccount(), {
    id: row.id,
    currency: row.currency,
    accountLevel: row.account_level,
    status: row.status,
    maxConcurrentTasks: row.max_concurrent_tasks,
    webhookSecret: row.webhook_secret,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

/**
 * What an operator may change on an account (`PATCH /admin/v1/accounts/{id}`):
 * a field left out is kept; `maxConcurrentTasks: null` removes the cap.
 */
export interface AccountSettings {
  accountLevel?: AccountLevel;
  maxConcurrentTasks?: number | null;
}

/** Accounts. Every method that takes an id treats a malformed one as unknown. */
@Injectable()
export class AccountRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A new active account with a fresh webhook secret, inside the caller's transaction when given. */
  async createAccount(
    input: { currency: Currency; accountLevel: AccountLevel },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StoredAccount> {
    const rows: AccountRow[] = await manager.query(
      `INSERT INTO accounts.accounts (currency, account_level, webhook_secret)
       VALUES ($1, $2, $3) RETURNING *`,
      [input.currency, input.accountLevel, generateWebhookSecret()],
    );
    return accountFromRow(rows[0]);
  }

  async findAccount(
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StoredAccount | undefined> {
    if (!isUUID(id)) return undefined;
    const rows: AccountRow[] = await manager.query(
      `SELECT * FROM accounts.accounts WHERE id = $1`,
      [id],
    );
    return rows[0] ? accountFromRow(rows[0]) : undefined;
  }

  /**
   * Accounts, newest first, a keyset page at a time (no OFFSET): one range of
   * the `accounts_newest_first` index whatever the depth. `limit` rows at most.
   */
  async pageAccounts(filter: AccountPageFilter): Promise<AccountPageRow[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (filter.status) {
      params.push(filter.status);
      where.push(`status = $${params.length}`);
    }
    if (filter.after) {
      params.push(filter.after.createdAt, filter.after.id);
      where.push(
        `(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`,
      );
    }
    params.push(filter.limit);
    const rows: (AccountRow & { exact_created_at: string })[] = await this.dataSource.query(
      `SELECT *,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS exact_created_at
         FROM accounts.accounts
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY created_at DESC, id DESC
        LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({
      account: accountFromRow(row),
      position: { createdAt: row.exact_created_at, id: row.id },
    }));
  }

  /** Suspends or reactivates; undefined when the account does not exist. */
  async setStatus(id: string, status: AccountStatus): Promise<StoredAccount | undefined> {
    if (!isUUID(id)) return undefined;
    const [rows]: [AccountRow[], number] = await this.dataSource.query(
      `UPDATE accounts.accounts SET status = $2,
              updated_at = CASE WHEN status = $2 THEN updated_at ELSE now() END
        WHERE id = $1 RETURNING *`,
      [id, status],
    );
    return rows[0] ? accountFromRow(rows[0]) : undefined;
  }

  /**
   * Changes the given settings (one statement; `updated_at` moves only when a
   * value changed). Undefined when the account does not exist.
   */
  async updateSettings(id: string, settings: AccountSettings): Promise<StoredAccount | undefined> {
    if (!isUUID(id)) return undefined;
    const params: unknown[] = [id];
    const sets: string[] = [];
    const columns: [string, unknown][] = [];
    if (settings.accountLevel !== undefined) columns.push(['account_level', settings.accountLevel]);
    if (settings.maxConcurrentTasks !== undefined)
      columns.push(['max_concurrent_tasks', settings.maxConcurrentTasks]);
    if (!columns.length) return this.findAccount(id);
    const changed: string[] = [];
    for (const [column, value] of columns) {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
      changed.push(`${column} IS DISTINCT FROM $${params.length}`);
    }
    const [rows]: [AccountRow[], number] = await this.dataSource.query(
      `UPDATE accounts.accounts SET ${sets.join(', ')},
              updated_at = CASE WHEN ${changed.join(' OR ')} THEN now() ELSE updated_at END
        WHERE id = $1 RETURNING *`,
      params,
    );
    return rows[0] ? accountFromRow(rows[0]) : undefined;
  }

  /**
   * Replaces the account's webhook secret with a fresh one (decision 0066: no
   * overlap, the old secret stops signing). Undefined when the account does not exist.
   */
  async rotateWebhookSecret(id: string): Promise<StoredAccount | undefined> {
    if (!isUUID(id)) return undefined;
    const [rows]: [AccountRow[], number] = await this.dataSource.query(
      `UPDATE accounts.accounts SET webhook_secret = $2, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [id, generateWebhookSecret()],
    );
    return rows[0] ? accountFromRow(rows[0]) : undefined;
  }

  /** The Standard Webhooks signing key of an account (used by the webhook dispatcher). */
  async findWebhookSecret(accountId: string): Promise<string | undefined> {
    if (!isUUID(accountId)) return undefined;
    const rows: { webhook_secret: string }[] = await this.dataSource.query(
      `SELECT webhook_secret FROM accounts.accounts WHERE id = $1`,
      [accountId],
    );
    return rows[0]?.webhook_secret;
  }
}
