/**
 * Attempt n (1-based) is made `delays[n-1]` ms after the end of attempt n-1
 * (extensions.md §6); there are `delays.length` attempts in all.
 */
export type RetryDecision =
  { retry: true; nextAttempt: number; delayMs: number } | { retry: false };

export function afterFailedAttempt(attempt: number, delaysMs: readonly number[]): RetryDecision {
  if (attempt >= delaysMs.length) return { retry: false };
  return { retry: true, nextAttempt: attempt + 1, delayMs: delaysMs[attempt] };
}

/** The first attempt's delay (normally 0: immediate). */
export function firstAttemptDelay(delaysMs: readonly number[]): number {
  return delaysMs[0] ?? 0;
}
