import type { SpendPeriod } from '@genhub/contracts';

/**
 * The start of the spend period `now` falls in, in UTC: the day's or the
 * month's midnight; a `total` limit has one period, from the epoch. The
 * key_spend row of a key's limit is keyed by this instant.
 */
export function spendPeriodStart(period: SpendPeriod, now: Date): Date {
  if (period === 'total') return new Date(0);
  const day = period === 'day' ? now.getUTCDate() : 1;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), day));
}
