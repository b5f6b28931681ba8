import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Currency } from '@genhub/money';

/** What the ledger holds for one account, and what its records and reservations add up to. */
export interface AccountLedgerFacts {
  accountId: string;
  currency: Currency;
  balanceUnits: number;
  reservedUnits: number;
  recordCount: number;
  /** Sum and number of the account's records. */
  recordsSumUnits: number;
  recordRows: number;
  /** balance_after of the newest record (seq = record_count); null without records. */
  lastBalanceAfterUnits: number | null;
  /** Sum and number of open reservations, and how many are older than the horizon. */
  openSumUnits: number;
  openCount: number;
  staleOpenCount: number;
  oldestOpenAt: Date | null;
  /** −(sum of usage records) and the usage_daily rollup's cost, which must agree. */
  usageCostUnits: number;
  rollupCostUnits: number;
  usageRows: number;
  rollupTasks: number;
  /**
   * The account's keys' spend counters (issue 37), and how many differ from
   * what they count: the open reservations counted in their period at their
   * amount plus the captured ones at their charge.
   */
  keySpendRows: number;
  keySpendMismatches: number;
}

interface FactsRow {
  account_id: string;
  currency: Currency;
  balance_units: number;
  reserved_units: number;
  record_count: number;
  records_sum: number;
  record_rows: number;
  last_balance_after: number | null;
  open_sum: number;
  open_count: number;
  stale_open: number;
  oldest_open: Date | null;
  usage_cost: number;
  usage_rows: number;
  rollup_cost: number;
  rollup_tasks: number;
  key_spend_rows: number;
  key_spend_mismatches: number;
}

/** Read-only sums for the ledger audit: one statement, so one consistent snapshot. */
@Injectable()
export class LedgerAuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async accountFacts(input: { horizonMs: number }): Promise<AccountLedgerFacts[]> {
    const rows: FactsRow[] = await this.dataSource.query(
      `WITH rec AS (
         SELECT account_id, sum(amount_units)::bigint AS records_sum, count(*)::bigint AS record_rows,
                coalesce(-sum(amount_units) FILTER (WHERE type = 'usage'), 0)::bigint AS usage_cost,
                count(*) FILTER (WHERE type = 'usage')::bigint AS usage_rows
           FROM billing.records GROUP BY account_id),
       res AS (
         SELECT account_id, sum(amount_units)::bigint AS open_sum, count(*)::bigint AS open_count,
                count(*) FILTER (WHERE created_at < now() - $1 * interval '1 millisecond')::bigint AS stale_open,
                min(created_at) AS oldest_open
           FROM billing.reservations WHERE state = 'open' GROUP BY account_id),
       roll AS (
         SELECT account_id, sum(cost_units)::bigint AS rollup_cost, sum(tasks)::bigint AS rollup_tasks
           FROM billing.usage_daily GROUP BY account_id),
       counted AS (
         SELECT r.account_id, ks.key_id, ks.period_start, ks.used_units,
                sum(CASE r.state WHEN 'open' THEN r.amount_units
                                 WHEN 'captured' THEN -coalesce(rec.amount_units, 0)
                                 ELSE 0 END)::bigint AS counted_units
           FROM billing.key_spend ks
           JOIN billing.reservations r
             ON r.api_key_id = ks.key_id AND r.key_period_start = ks.period_start
           LEFT JOIN billing.records rec ON rec.task_id = r.task_id
          GROUP BY r.account_id, ks.key_id, ks.period_start, ks.used_units),
       keys AS (
         SELECT account_id, count(*)::bigint AS key_spend_rows,
                count(*) FILTER (WHERE used_units <> counted_units)::bigint AS key_spend_mismatches
           FROM counted GROUP BY account_id)
       SELECT b.account_id, b.currency, b.balance_units, b.reserved_units, b.record_count,
              coalesce(rec.records_sum, 0) AS records_sum, coalesce(rec.record_rows, 0) AS record_rows,
              last.balance_after_units AS last_balance_after,
              coalesce(res.open_sum, 0) AS open_sum, coalesce(res.open_count, 0) AS open_count,
              coalesce(res.stale_open, 0) AS stale_open, res.oldest_open,
              coalesce(rec.usage_cost, 0) AS usage_cost, coalesce(rec.usage_rows, 0) AS usage_rows,
              coalesce(roll.rollup_cost, 0) AS rollup_cost, coalesce(roll.rollup_tasks, 0) AS rollup_tasks,
              coalesce(keys.key_spend_rows, 0) AS key_spend_rows,
              coalesce(keys.key_spend_mismatches, 0) AS key_spend_mismatches
         FROM billing.balances b
         LEFT JOIN rec USING (account_id)
         LEFT JOIN res USING (account_id)
         LEFT JOIN roll USING (account_id)
         LEFT JOIN keys USING (account_id)
         LEFT JOIN billing.records last ON last.account_id = b.account_id AND last.seq = b.record_count
        ORDER BY b.account_id`,
      [input.horizonMs],
    );
    return rows.map((row) => ({
      accountId: row.account_id,
      currency: row.currency,
      balanceUnits: row.balance_units,
      reservedUnits: row.reserved_units,
      recordCount: row.record_count,
      recordsSumUnits: row.records_sum,
      recordRows: row.record_rows,
      lastBalanceAfterUnits: row.last_balance_after,
      openSumUnits: row.open_sum,
      openCount: row.open_count,
      staleOpenCount: row.stale_open,
      oldestOpenAt: row.oldest_open,
      usageCostUnits: row.usage_cost,
      usageRows: row.usage_rows,
      rollupCostUnits: row.rollup_cost,
      rollupTasks: row.rollup_tasks,
      keySpendRows: row.key_spend_rows,
      keySpendMismatches: row.key_spend_mismatches,
    }));
  }

  /** How many reservations are open across all accounts (a metric, not a tenant query). */
  async openReservationCount(): Promise<number> {
    const rows: { n: number }[] = await this.dataSource.query(
      `SELECT count(*)::bigint AS n FROM billing.reservations WHERE state = 'open'`,
    );
    return rows[0].n;
  }
}
