import type { AttemptOutcome } from '@genhub/webhooks-data-access';

/**
 * Attempt n (1-based) is made `delays[n-1]` ms after the end of attempt n-1
 * (docs/interface.md, "Webhook retry delays"); there are `delays.length` attempts in
 * all. A replayed delivery (`webhooks:replay`) starts a new round at `firstAttempt`: its
 * attempts keep counting up in the log, and the round gets the same delays.
 */
export type RetryDecision =
  { retry: true; nextAttempt: number; delayMs: number } | { retry: false };

export function afterFailedAttempt(
  attempt: number,
  delaysMs: readonly number[],
  firstAttempt = 1,
): RetryDecision {
  const inRound = attempt - firstAttempt + 1;
  if (inRound >= delaysMs.length) return { retry: false };
  return { retry: true, nextAttempt: attempt + 1, delayMs: delaysMs[inRound] };
}

/** What an attempt's answer makes of its delivery, and the retry when one follows. */
export function outcomeOf(
  ok: boolean,
  attempt: number,
  delaysMs: readonly number[],
  firstAttempt = 1,
): { outcome: AttemptOutcome; retry: RetryDecision } {
  if (ok) return { outcome: 'delivered', retry: { retry: false } };
  const retry = afterFailedAttempt(attempt, delaysMs, firstAttempt);
  return { outcome: retry.retry ? 'failed' : 'abandoned', retry };
}

/**
 * How long a round's first attempt must still wait for the first delay,
 * counted from `since` (ms since epoch: the job's enqueueing, the delivery's
 * opening); 0 for any other attempt, or once the delay has passed.
 */
export function firstDelayLeft(
  attempt: number,
  firstAttempt: number,
  delaysMs: readonly number[],
  since: number,
): number {
  if (attempt !== firstAttempt || delaysMs[0] <= 0) return 0;
  return Math.max(0, since + delaysMs[0] - Date.now());
}
