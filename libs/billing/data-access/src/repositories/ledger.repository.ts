import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { sql } from 'kysely';
import { runStatement, statementsOf } from '@genhub/database';
import type { Currency } from '@genhub/money';
import { StoredBillingRecord } from '../rows';
import { recordFromRow, type RecordRow } from './billing-record-row.mapper';
import {
  type BalanceView,
  type CaptureResult,
  type ReleaseResult,
  type ReserveInput,
  type ReserveRefusal,
  type ReserveResult,
  type SettleInput,
} from './ledger.types';
import {
  type BillingTables,
  withCapture,
  withRelease,
  withReservation,
} from '../statements/ledger.statements';

const billing = statementsOf<BillingTables>();

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
    const rows = await runStatement(
      manager,
      withReservation(billing, input).selectFrom('reserved').select('task_id'),
    );
    if (rows.length === 1) return { ok: true };
    return this.refusal(input, manager);
  }

  /**
   * Why a reservation was just refused, read after the refusal (for the
   * 402's text): the balance when it does not cover the price, else the key's
   * limit (what its period has used).
   */
  async refusal(
    input: ReserveInput,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ReserveRefusal> {
    const { availableUnits, currency } = await this.shortfall(input.accountId, manager);
    if (!input.keyLimit || availableUnits < input.amountUnits || input.apiKeyId === null)
      return { ok: false, reason: 'balance', availableUnits, currency };
    const rows: { used_units: number }[] = await manager.query(
      `SELECT used_units FROM billing.key_spend WHERE key_id = $1 AND period_start = $2`,
      [input.apiKeyId, input.keyLimit.periodStart],
    );
    return {
      ok: false,
      reason: 'key_limit',
      spentUnits: rows[0]?.used_units ?? 0,
      limitUnits: input.keyLimit.limitUnits,
      currency,
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
    const rows = (await runStatement(
      manager,
      withCapture(billing, { ...input, chargeUnits }, sql<boolean>`true`)
        .selectFrom('settle_record')
        .selectAll(),
    )) as unknown as RecordRow[];
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
   * mid-stream). Keys with a spend limit get the room back. Returns how many
   * were released and their total.
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
          RETURNING account_id, amount_units, api_key_id, key_period_start),
       per_account AS (
         SELECT account_id, sum(amount_units)::bigint AS amount_units, count(*)::int AS n
           FROM stale GROUP BY account_id),
       returned AS (
         UPDATE billing.balances bal
            SET reserved_units = bal.reserved_units - p.amount_units, updated_at = now()
           FROM per_account p
          WHERE bal.account_id = p.account_id
          RETURNING p.amount_units, p.n),
       per_key AS (
         SELECT api_key_id, key_period_start, sum(amount_units)::bigint AS amount_units
           FROM stale WHERE key_period_start IS NOT NULL
          GROUP BY api_key_id, key_period_start),
       key_room AS (
         -- After the balances (reads returned): the reservation's lock order.
         UPDATE billing.key_spend ks
            SET used_units = greatest(ks.used_units - k.amount_units, 0)
           FROM per_key k
          WHERE ks.key_id = k.api_key_id AND ks.period_start = k.key_period_start
            AND EXISTS (SELECT 1 FROM returned))
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
    const rows = await runStatement(
      manager,
      withRelease(billing, input, sql<boolean>`true`)
        .selectFrom('settle_balance')
        .select('amount_units'),
    );
    return rows[0]
      ? { outcome: 'released', amountUnits: rows[0].amount_units }
      : { outcome: 'unchanged' };
  }
}
