import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SpendPeriod } from '@genhub/contracts';
import { spendPeriodStart } from '../util/spend-period.util';

/** A key as its spend is read or reset: its account and its limit's period (null: no limit). */
export interface KeySpendKey {
  id: string;
  accountId: string;
  period: SpendPeriod | null;
}

/**
 * The keys' spend counters (billing.key_spend) beyond the reservation that
 * bumps them: what the key list shows, and the reset when a limit is set or
 * changed (decision 0135).
 */
@Injectable()
export class KeySpendRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * What each key has spent, by id: a limited key its current period's
   * counter (open reservations + captured charges counted in it), a key
   * without a limit everything since it was issued (its captured charges and
   * open reservations). One read for a page of keys.
   */
  async spentOf(keys: readonly KeySpendKey[], now: Date): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const rows: { key_id: string; spent: number }[] = await this.dataSource.query(
      `WITH k AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[])
                AS k(key_id, account_id, period_start))
       SELECT k.key_id,
              CASE WHEN k.period_start IS NOT NULL THEN
                coalesce((SELECT ks.used_units FROM billing.key_spend ks
                           WHERE ks.key_id = k.key_id AND ks.period_start = k.period_start), 0)
              ELSE
                coalesce((SELECT -sum(r.amount_units) FROM billing.records r
                           WHERE r.account_id = k.account_id AND r.api_key_id = k.key_id), 0)
                + coalesce((SELECT sum(o.amount_units) FROM billing.reservations o
                             WHERE o.account_id = k.account_id AND o.state = 'open'
                               AND o.api_key_id = k.key_id), 0)
              END::bigint AS spent
         FROM k`,
      [
        keys.map((key) => key.id),
        keys.map((key) => key.accountId),
        keys.map((key) => (key.period ? spendPeriodStart(key.period, now) : null)),
      ],
    );
    return new Map(rows.map((row) => [row.key_id, Number(row.spent)]));
  }

  /**
   * (Re)initialises a limited key's counter for the period `now` falls in,
   * after its limit was set or changed: from the key's reservations made in
   * the period, open ones at their amount and captured ones at their charge.
   * Those reservations are stamped with the period first, so when one settles
   * later it gives its room back to this counter. Lock order as the
   * reservation's where it matters: the reservations (as a settlement takes
   * them), then the balance row (waiting out in-flight submits and
   * settlements of the account), then the counter; the sums are read after
   * both locks, so they are exact. A key without a limit: nothing to do.
   * The key's counters of other periods are dropped (a changed period makes
   * them meaningless). Edge: a submit authenticated before the change and
   * committed while this runs is not counted (it held no limit).
   */
  async resetPeriod(key: KeySpendKey, now: Date): Promise<void> {
    if (!key.period) return;
    const periodStart = spendPeriodStart(key.period, now);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `UPDATE billing.reservations r SET key_period_start = $3
          WHERE r.account_id = $1 AND r.api_key_id = $2 AND r.state = 'open'
            AND r.created_at >= $3 AND r.key_period_start IS DISTINCT FROM $3`,
        [key.accountId, key.id, periodStart],
      );
      await manager.query(
        `UPDATE billing.reservations r SET key_period_start = $3
           FROM billing.records rec
          WHERE rec.account_id = $1 AND rec.api_key_id = $2 AND rec.created_at >= $3
            AND r.task_id = rec.task_id AND r.state = 'captured'
            AND r.created_at >= $3 AND r.key_period_start IS DISTINCT FROM $3`,
        [key.accountId, key.id, periodStart],
      );
      await manager.query(`SELECT 1 FROM billing.balances WHERE account_id = $1 FOR UPDATE`, [
        key.accountId,
      ]);
      await manager.query(
        `WITH open_sum AS (
           SELECT coalesce(sum(amount_units), 0)::bigint AS units FROM billing.reservations
            WHERE account_id = $1 AND state = 'open' AND api_key_id = $2 AND key_period_start = $3),
         captured_sum AS (
           SELECT coalesce(-sum(rec.amount_units), 0)::bigint AS units
             FROM billing.records rec JOIN billing.reservations r ON r.task_id = rec.task_id
            WHERE rec.account_id = $1 AND rec.api_key_id = $2 AND rec.created_at >= $3
              AND r.key_period_start = $3),
         dropped AS (
           DELETE FROM billing.key_spend WHERE key_id = $2 AND period_start <> $3)
         INSERT INTO billing.key_spend (key_id, period_start, used_units)
         SELECT $2, $3, open_sum.units + captured_sum.units FROM open_sum, captured_sum
         ON CONFLICT (key_id, period_start) DO UPDATE SET used_units = excluded.used_units`,
        [key.accountId, key.id, periodStart],
      );
    });
  }
}
