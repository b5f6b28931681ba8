import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Currency } from '@genhub/money';
import { StoredBillingRecord } from '../rows';
import { recordFromRow, type RecordRow } from './billing-record-row.mapper';
import {
  type BalanceView,
  type CaptureResult,
  type LedgerCte,
  type ReleaseResult,
  type ReserveInput,
  type ReserveResult,
  type SettleInput,
} from './ledger.types';

/**
 * The ledger's writes. Each is one conditional SQL statement, so concurrent
 * callers can never overspend or double-count: PostgreSQL's row lock on the
 * balance serialises them.
 */
@Injectable()
export class LedgerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Creates the account's balance; a positive opening balance is its first top-up record. */
  async openAccount(
    input: { accountId: string; currency: Currency; initialUnits: number },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`INSERT INTO billing.balances (account_id, currency) VALUES ($1, $2)`, [
      input.accountId,
      input.currency,
    ]);
    if (input.initialUnits > 0)
      await this.topUp({ accountId: input.accountId, amountUnits: input.initialUnits }, manager);
  }

  /** Adds funds and writes the `top-up` record; undefined when the account has no balance row. */
  async topUp(
    input: { accountId: string; amountUnits: number },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StoredBillingRecord | undefined> {
    const rows: RecordRow[] = await manager.query(
      `WITH b AS (
         UPDATE billing.balances
            SET balance_units = balance_units + $2, record_count = record_count + 1,
                topup_count = topup_count + 1, updated_at = now()
          WHERE account_id = $1
          RETURNING balance_units, record_count, topup_count)
       INSERT INTO billing.records (account_id, seq, type_seq, type, amount_units, balance_after_units)
       SELECT $1, record_count, topup_count, 'top-up', $2, balance_units FROM b
       RETURNING *`,
      [input.accountId, input.amountUnits],
    );
    return rows[0] ? recordFromRow(rows[0]) : undefined;
  }

  async balanceOf(
    accountId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<BalanceView | undefined> {
    const rows: { currency: Currency; balance_units: number; reserved_units: number }[] =
      await manager.query(
        `SELECT currency, balance_units, reserved_units FROM billing.balances WHERE account_id = $1`,
        [accountId],
      );
    const row = rows[0];
    return row
      ? {
          accountId,
          currency: row.currency,
          balanceUnits: row.balance_units,
          reservedUnits: row.reserved_units,
        }
      : undefined;
  }

  /** The balances of several accounts in one read; an account without a balance row is absent. */
  async balancesOf(
    accountIds: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<BalanceView[]> {
    if (accountIds.length === 0) return [];
    const rows: {
      account_id: string;
      currency: Currency;
      balance_units: number;
      reserved_units: number;
    }[] = await manager.query(
      `SELECT account_id, currency, balance_units, reserved_units
         FROM billing.balances WHERE account_id = ANY($1::uuid[])`,
      [accountIds],
    );
    return rows.map((row) => ({
      accountId: row.account_id,
      currency: row.currency,
      balanceUnits: row.balance_units,
      reservedUnits: row.reserved_units,
    }));
  }

  /**
   * Reserves a task's price inside the caller's transaction (the one that
   * creates the task). Nothing is written when the balance does not cover it.
   */
  async reserve(manager: EntityManager, input: ReserveInput): Promise<ReserveResult> {
    const { sql, params } = this.reservationCte(input);
    const rows: unknown[] = await manager.query(`WITH ${sql} SELECT task_id FROM reserved`, params);
    if (rows.length === 1) return { ok: true };
    return { ok: false, ...(await this.shortfall(input.accountId, manager)) };
  }

  /**
   * The reservation as a data-modifying CTE named `reserved` ($1…$5), for a
   * caller that composes it into the statement creating the task: one row
   * when the balance covered the price (and it is now reserved), none (and
   * nothing written) otherwise.
   */
  reservationCte(input: ReserveInput): LedgerCte {
    return {
      sql: `reserved_balance AS (
         UPDATE billing.balances SET reserved_units = reserved_units + $3, updated_at = now()
          WHERE account_id = $1 AND balance_units - reserved_units >= $3
          RETURNING account_id),
       reserved AS (
         INSERT INTO billing.reservations (task_id, account_id, amount_units, model, category)
         SELECT $2, account_id, $3, $4, $5 FROM reserved_balance
         RETURNING task_id)`,
      params: [input.accountId, input.taskId, input.amountUnits, input.model, input.category],
      yields: 'reserved',
    };
  }

  /** What an account has left to reserve (after a refusal). */
  async shortfall(
    accountId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ availableUnits: number; currency: Currency }> {
    const balance = await this.balanceOf(accountId, manager);
    return {
      availableUnits: balance ? balance.balanceUnits - balance.reservedUnits : 0,
      currency: balance?.currency ?? 'USD',
    };
  }

  /**
   * Turns the task's open reservation into one `usage` record, in ONE
   * statement (so one implicit transaction, one round trip): the reservation
   * moves open → captured only if it is still open, and the balance, the
   * record counters, the record and the daily rollup all follow from that
   * single conditional update. A second capture (redelivered job, or a
   * concurrent one that waited on the reservation's row lock) finds the
   * reservation no longer open and writes nothing.
   */
  async capture(
    input: SettleInput,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CaptureResult> {
    return this.captureUpTo(input, null, manager);
  }

  /**
   * Like `capture`, but charges `amountUnits` (at most the reservation) and
   * returns the rest to the balance, in the same single conditional
   * statement. For work priced only once it is done (chat tokens): reserve
   * an upper bound, then capture the actual cost.
   */
  async captureAmount(
    input: SettleInput & { amountUnits: number },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CaptureResult> {
    if (!Number.isSafeInteger(input.amountUnits) || input.amountUnits < 0)
      throw new RangeError('amountUnits must be a non-negative integer');
    return this.captureUpTo(input, input.amountUnits, manager);
  }

  /** The capture statement; `chargeUnits` null charges the whole reservation. */
  private async captureUpTo(
    input: SettleInput,
    chargeUnits: number | null,
    manager: EntityManager,
  ): Promise<CaptureResult> {
    const { sql, params } = this.settlementCte({ ...input, outcome: 'capture', chargeUnits });
    const rows: RecordRow[] = await manager.query(
      `WITH ${sql} SELECT * FROM settle_record`,
      params,
    );
    return rows[0]
      ? { outcome: 'captured', record: recordFromRow(rows[0]) }
      : { outcome: 'unchanged' };
  }

  /**
   * Releases every reservation of `category` still open after `olderThanMs`,
   * in ONE statement: each moves open → released only if still open (a
   * concurrent settlement or another replica wins the row, never both), and
   * each account's reserved_units falls by what was released from it. For
   * reservations nothing else will settle (a chat whose gateway died
   * mid-stream). Returns how many were released and their total.
   */
  async releaseStale(input: {
    category: string;
    olderThanMs: number;
  }): Promise<{ released: number; amountUnits: number }> {
    const rows: { released: number; amount_units: number }[] = await this.dataSource.query(
      `WITH stale AS (
         UPDATE billing.reservations SET state = 'released', settled_at = now()
          WHERE state = 'open' AND category = $1
            AND created_at < now() - $2::float8 * interval '1 millisecond'
          RETURNING account_id, amount_units),
       per_account AS (
         SELECT account_id, sum(amount_units)::bigint AS amount_units, count(*)::int AS n
           FROM stale GROUP BY account_id),
       returned AS (
         UPDATE billing.balances bal
            SET reserved_units = bal.reserved_units - p.amount_units, updated_at = now()
           FROM per_account p
          WHERE bal.account_id = p.account_id
          RETURNING p.amount_units, p.n)
       SELECT coalesce(sum(n), 0)::int AS released, coalesce(sum(amount_units), 0)::bigint AS amount_units
         FROM returned`,
      [input.category, input.olderThanMs],
    );
    return { released: rows[0].released, amountUnits: Number(rows[0].amount_units) };
  }

  /**
   * Returns the task's open reservation to the balance: open → released only
   * if still open, reserved_units falls by the same amount, no record.
   */
  async release(
    input: SettleInput,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ReleaseResult> {
    const { sql, params } = this.settlementCte({ ...input, outcome: 'release' });
    const rows: { amount_units: number }[] = await manager.query(
      `WITH ${sql} SELECT amount_units FROM settle_balance`,
      params,
    );
    return rows[0]
      ? { outcome: 'released', amountUnits: rows[0].amount_units }
      : { outcome: 'unchanged' };
  }

  /**
   * Capture or release as data-modifying CTEs (`settled`, one row when it
   * settled, and `settle_…`; parameters $1 and
   * $2, and $3 for a capture), for capture()/captureAmount()/release() and
   * for a caller that settles in the statement that ends the task: with
   * `when` (an SQL condition, e.g. that the caller's terminal write returned
   * its row) nothing is settled unless it holds. A capture charges
   * `chargeUnits` (capped at the reservation; absent or null: all of it) and
   * returns the rest: reserved_units drops by the full reservation, while the
   * balance, the record and the rollup use the charged amount.
   */
  settlementCte(
    input: SettleInput & { outcome: 'capture' | 'release'; chargeUnits?: number | null },
    when = 'true',
  ): LedgerCte {
    if (input.outcome === 'release')
      return {
        sql: `settled AS (
         UPDATE billing.reservations SET state = 'released', settled_at = now()
          WHERE task_id = $1 AND account_id = $2 AND state = 'open' AND (${when})
          RETURNING account_id, amount_units),
       settle_balance AS (
         UPDATE billing.balances bal
            SET reserved_units = bal.reserved_units - r.amount_units, updated_at = now()
           FROM settled r
          WHERE bal.account_id = r.account_id
          RETURNING r.amount_units)`,
        params: [input.taskId, input.accountId],
        yields: 'settled',
      };
    return {
      sql: `settled AS (
         UPDATE billing.reservations SET state = 'captured', settled_at = now()
          WHERE task_id = $1 AND account_id = $2 AND state = 'open' AND (${when})
          RETURNING task_id, account_id, amount_units,
                    LEAST(coalesce($3::bigint, amount_units), amount_units) AS charged_units,
                    model, category),
       settle_balance AS (
         UPDATE billing.balances bal
            SET balance_units = bal.balance_units - r.charged_units,
                reserved_units = bal.reserved_units - r.amount_units,
                record_count = bal.record_count + 1,
                usage_count = bal.usage_count + 1,
                updated_at = now()
           FROM settled r
          WHERE bal.account_id = r.account_id
          RETURNING bal.balance_units, bal.record_count, bal.usage_count),
       settle_record AS (
         INSERT INTO billing.records
                (account_id, seq, type_seq, type, amount_units, balance_after_units, model, category, task_id)
         SELECT r.account_id, b.record_count, b.usage_count, 'usage', -r.charged_units, b.balance_units,
                r.model, r.category, r.task_id
           FROM settled r, settle_balance b
         RETURNING *),
       settle_rollup AS (
         INSERT INTO billing.usage_daily (account_id, day, category, tasks, cost_units)
         SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, category, 1, -amount_units FROM settle_record
         ON CONFLICT (account_id, day, category) DO UPDATE
            SET tasks = billing.usage_daily.tasks + 1,
                cost_units = billing.usage_daily.cost_units + EXCLUDED.cost_units)`,
      params: [input.taskId, input.accountId, input.chargeUnits ?? null],
      yields: 'settled',
    };
  }
}
