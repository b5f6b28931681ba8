import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUUID } from 'class-validator';
import type { AccountStatus } from '../rows';

/**
 * An upload's row: `ticketed` (a direct upload declared, its bytes not yet
 * received by us), `receiving` (the one PUT of its ticket is under way, or
 * went through without being marked), `stored` (its bytes are in storage).
 */
export type UploadState = 'ticketed' | 'receiving' | 'stored';

/** An account's quotas; 0 is no limit. */
export interface UploadLimits {
  maxBytes: number;
  maxPerDay: number;
}

/** What an account's unexpired uploads hold at `now`, and how many it made that UTC day. */
export interface UploadUsage {
  /** undefined: no such account. */
  status: AccountStatus | undefined;
  heldBytes: number;
  uploadsToday: number;
}

export interface NewUpload {
  accountId: string;
  key: string;
  bytes: number;
  state: Extract<UploadState, 'ticketed' | 'stored'>;
  now: Date;
  expiresAt: Date;
}

/** Why an upload was not counted, with the usage it was judged against. */
export type RecordRefusal = 'unknown-account' | 'suspended' | 'daily' | 'bytes';

export type RecordOutcome =
  { recorded: true } | { recorded: false; refusal: RecordRefusal; usage: UploadUsage };

/** What the one PUT of a ticket found. */
export type ClaimOutcome = 'claimed' | 'used' | 'suspended' | 'unknown';

/** Midnight UTC of `now`'s day: the per-day count starts there. */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * The uploads each account holds (`accounts.uploads`, decision 0129): what
 * its quotas are counted on, exactly under concurrency, and the single use of
 * a direct upload's ticket.
 */
@Injectable()
export class UploadRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The account's status and usage, read without a lock (the early refusal before a body is read). */
  async usage(accountId: string, now: Date): Promise<UploadUsage> {
    if (!isUUID(accountId)) return { status: undefined, heldBytes: 0, uploadsToday: 0 };
    const rows: { status: AccountStatus }[] = await this.dataSource.query(
      `SELECT status FROM accounts.accounts WHERE id = $1`,
      [accountId],
    );
    if (!rows[0]) return { status: undefined, heldBytes: 0, uploadsToday: 0 };
    return {
      status: rows[0].status,
      ...(await this.held(this.dataSource.manager, accountId, now)),
    };
  }

  /**
   * Counts one upload if the account is active and within its limits, else
   * nothing. Exact under concurrency: the account's row is locked first
   * (uploads of one account take turns; other accounts never wait), so the
   * usage read after it includes every upload committed before, and this one
   * is inserted in the same transaction.
   */
  async record(upload: NewUpload, limits: UploadLimits): Promise<RecordOutcome> {
    if (!isUUID(upload.accountId))
      return {
        recorded: false,
        refusal: 'unknown-account',
        usage: { status: undefined, heldBytes: 0, uploadsToday: 0 },
      };
    return this.dataSource.transaction(async (manager): Promise<RecordOutcome> => {
      // FOR NO KEY UPDATE: uploads of this account queue here; foreign-key checks do not.
      const rows: { status: AccountStatus }[] = await manager.query(
        `SELECT status FROM accounts.accounts WHERE id = $1 FOR NO KEY UPDATE`,
        [upload.accountId],
      );
      const status = rows[0]?.status;
      const usage: UploadUsage = status
        ? { status, ...(await this.held(manager, upload.accountId, upload.now)) }
        : { status: undefined, heldBytes: 0, uploadsToday: 0 };
      const refusal = uploadRefusal(usage, upload.bytes, limits);
      if (refusal) return { recorded: false, refusal, usage };
      await manager.query(
        `INSERT INTO accounts.uploads (key, account_id, bytes, state, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [upload.key, upload.accountId, upload.bytes, upload.state, upload.now, upload.expiresAt],
      );
      return { recorded: true };
    });
  }

  /**
   * The one PUT of a ticket: `ticketed` → `receiving`, for exactly one caller
   * however many race (the row update is atomic); refused while the account
   * is suspended. `used` once taken, `unknown` when no ticket has this key.
   */
  async claim(key: string): Promise<ClaimOutcome> {
    const [claimed]: [unknown[], number] = await this.dataSource.query(
      `UPDATE accounts.uploads u SET state = 'receiving'
         FROM accounts.accounts a
        WHERE u.key = $1 AND u.state = 'ticketed' AND a.id = u.account_id AND a.status = 'active'
        RETURNING u.key`,
      [key],
    );
    if (claimed.length) return 'claimed';
    const rows: { state: UploadState; status: AccountStatus }[] = await this.dataSource.query(
      `SELECT u.state, a.status
         FROM accounts.uploads u JOIN accounts.accounts a ON a.id = u.account_id
        WHERE u.key = $1`,
      [key],
    );
    if (!rows[0]) return 'unknown';
    if (rows[0].state !== 'ticketed') return 'used';
    return rows[0].status === 'active' ? 'used' : 'suspended';
  }

  /** A claimed PUT failed and stored nothing: its ticket may be used again. */
  async release(key: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE accounts.uploads SET state = 'ticketed' WHERE key = $1 AND state = 'receiving'`,
      [key],
    );
  }

  /** A claimed PUT stored its bytes. */
  async markStored(key: string): Promise<void> {
    await this.dataSource.query(`UPDATE accounts.uploads SET state = 'stored' WHERE key = $1`, [
      key,
    ]);
  }

  /** Forgets uploads that stopped counting (their files are swept with them); returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const [, deleted] = (await this.dataSource.query(
      `DELETE FROM accounts.uploads WHERE expires_at <= $1`,
      [now],
    )) as [unknown, number];
    return deleted;
  }

  private async held(
    manager: EntityManager,
    accountId: string,
    now: Date,
  ): Promise<Pick<UploadUsage, 'heldBytes' | 'uploadsToday'>> {
    const rows: { held: string; today: number }[] = await manager.query(
      `SELECT coalesce(sum(bytes), 0)::text AS held,
              (count(*) FILTER (WHERE created_at >= $3))::int AS today
         FROM accounts.uploads
        WHERE account_id = $1 AND expires_at > $2`,
      [accountId, now, utcDayStart(now)],
    );
    return { heldBytes: Number(rows[0].held), uploadsToday: rows[0].today };
  }
}

/**
 * The one rule of the quotas: why an upload of `bytes` is refused given the
 * account's usage, in this order (suspended, no uploads left today, not
 * enough bytes left), or undefined when it fits. 0 is no limit.
 */
export function uploadRefusal(
  usage: UploadUsage,
  bytes: number,
  limits: UploadLimits,
): RecordRefusal | undefined {
  if (usage.status === undefined) return 'unknown-account';
  if (usage.status !== 'active') return 'suspended';
  if (limits.maxPerDay > 0 && usage.uploadsToday >= limits.maxPerDay) return 'daily';
  if (limits.maxBytes > 0 && usage.heldBytes + bytes > limits.maxBytes) return 'bytes';
  return undefined;
}
