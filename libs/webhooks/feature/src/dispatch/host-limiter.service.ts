/** When a job may wait in process for a slot of its host instead of being put back. */
export interface HostWaitPolicy {
  /**
   * Only for hosts that took or freed a slot at most this long ago (a hanging
   * host frees none); a waiter gives up as soon as its host has been still
   * for this long.
   */
  recentReleaseMs: number;
  /** The longest a job waits before it is put back after all. */
  maxWaitMs: number;
  /** Waiting jobs per host, as a multiple of the per-host limit. */
  waitersPerSlot: number;
}

export const DEFAULT_HOST_WAIT: HostWaitPolicy = {
  recentReleaseMs: 250,
  maxWaitMs: 1000,
  waitersPerSlot: 10,
};

/**
 * The policy for a dispatcher of `concurrency` attempts at once and
 * `perHost` per host: a host that turns its slots over may have the whole
 * dispatcher waiting for it. A shorter line put a healthy receiver's burst
 * back and forth: each put-back costs two Redis scripts and a fresh read of
 * the delivery, which on a loaded machine slowed every attempt further and
 * took first attempts from milliseconds to seconds (issue 38).
 */
export function hostWaitFor(concurrency: number, perHost: number): HostWaitPolicy {
  return {
    ...DEFAULT_HOST_WAIT,
    waitersPerSlot: Math.max(DEFAULT_HOST_WAIT.waitersPerSlot, Math.ceil(concurrency / perHost)),
  };
}

/** Hosts whose last slot activity is remembered (oldest forgotten first). */
const REMEMBERED_HOSTS = 10_000;

interface Waiter {
  grant: (release: (() => void) | undefined) => void;
  timer?: NodeJS.Timeout;
}

/**
 * In-process counting semaphore per receiver host (`host:port`). A job for a
 * saturated host is put back (delayed) instead of holding one of the worker's
 * slots while a slow receiver hangs — except when the host is visibly
 * turning its slots over (it took or freed one within `recentReleaseMs`): then a
 * bounded number of jobs wait briefly for a slot, because putting a burst for
 * one busy but healthy receiver back and forth costs far more than the wait
 * (each put-back is two Redis scripts, and the burst comes back as a burst,
 * which is how webhook latency reached seconds under load).
 */
export class HostLimiter {
  private readonly inFlight = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly lastActivityAt = new Map<string, number>();

  constructor(
    private readonly perHost: number,
    private readonly wait: HostWaitPolicy = DEFAULT_HOST_WAIT,
  ) {}

  /** A release function, or undefined when the host already has `perHost` calls in flight. */
  tryAcquire(host: string): (() => void) | undefined {
    const current = this.inFlight.get(host) ?? 0;
    if (current >= this.perHost) return undefined;
    this.inFlight.set(host, current + 1);
    this.remember(host);
    return this.releaseFor(host);
  }

  /**
   * tryAcquire, or, for a host that is turning its slots over and has room
   * in its wait line, the first slot freed within `maxWaitMs` (while the
   * host keeps turning them over); undefined means: put the job back.
   */
  acquire(host: string): Promise<(() => void) | undefined> {
    const now = this.tryAcquire(host);
    if (now) return Promise.resolve(now);
    const line = this.waiters.get(host) ?? [];
    if (
      this.stillFor(host) > this.wait.recentReleaseMs ||
      line.length >= this.perHost * this.wait.waitersPerSlot
    )
      return Promise.resolve(undefined);
    const deadline = Date.now() + this.wait.maxWaitMs;
    return new Promise((resolve) => {
      const giveUp = () => {
        const i = line.indexOf(waiter);
        if (i >= 0) line.splice(i, 1);
        if (!line.length && this.waiters.get(host) === line) this.waiters.delete(host);
        resolve(undefined);
      };
      // Re-checked until the deadline: the host must keep turning its slots over.
      const check = () => {
        const still = this.stillFor(host);
        if (Date.now() >= deadline || still >= this.wait.recentReleaseMs) return giveUp();
        waiter.timer = setTimeout(
          check,
          Math.min(deadline - Date.now(), this.wait.recentReleaseMs - still),
        );
      };
      const waiter: Waiter = { grant: resolve };
      line.push(waiter);
      this.waiters.set(host, line);
      check();
    });
  }

  /** How long the host has taken and freed no slot (Infinity when never). */
  private stillFor(host: string): number {
    const at = this.lastActivityAt.get(host);
    return at === undefined ? Infinity : Date.now() - at;
  }

  inFlightFor(host: string): number {
    return this.inFlight.get(host) ?? 0;
  }

  private releaseFor(host: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.remember(host);
      const next = this.waiters.get(host)?.shift();
      if (next) {
        // The slot passes straight to the next waiter: in-flight count unchanged.
        if (!this.waiters.get(host)?.length) this.waiters.delete(host);
        clearTimeout(next.timer);
        next.grant(this.releaseFor(host));
        return;
      }
      const left = (this.inFlight.get(host) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(host);
      else this.inFlight.set(host, left);
    };
  }

  private remember(host: string): void {
    this.lastActivityAt.delete(host);
    this.lastActivityAt.set(host, Date.now());
    if (this.lastActivityAt.size > REMEMBERED_HOSTS)
      this.lastActivityAt.delete(this.lastActivityAt.keys().next().value as string);
  }
}
