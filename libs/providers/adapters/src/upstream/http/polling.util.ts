import { abortableDelay } from '../../local/simulator.adapter';

export interface Backoff {
  /** First wait between polls. */
  initialMs: number;
  /** Longest wait between polls. */
  maxMs: number;
  factor: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 5000, factor: 1.5 };

/**
 * Calls `poll` until it returns a value, waiting longer each time (up to
 * `maxMs`). The run's signal ends the wait at once with its reason.
 */
export async function pollWithBackoff<T>(
  poll: () => Promise<T | undefined>,
  signal: AbortSignal,
  backoff: Backoff = DEFAULT_BACKOFF,
): Promise<T> {
  let wait = backoff.initialMs;
  for (;;) {
    await abortableDelay(wait, signal);
    const done = await poll();
    if (done !== undefined) return done;
    wait = Math.min(backoff.maxMs, Math.round(wait * backoff.factor));
  }
}

/**
 * Runs `work`; if it fails after the upstream accepted the job (our abort, a
 * time-out, a bad answer), asks the upstream to cancel so it stops working
 * and billing, then rethrows. The cancel has its own short limit: the run's
 * signal is already aborted.
 */
export async function cancelOnFailure<T>(
  work: () => Promise<T>,
  cancel: (signal: AbortSignal) => Promise<unknown>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await cancel(AbortSignal.timeout(CANCEL_TIMEOUT_MS)).catch(() => undefined);
    throw error;
  }
}

export const CANCEL_TIMEOUT_MS = 5000;
