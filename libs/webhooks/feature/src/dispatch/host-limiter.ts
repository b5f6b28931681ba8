/**
 * In-process counting semaphore per receiver host (`host:port`). It never
 * waits: `tryAcquire` answers at once, so a job for a saturated host can be
 * put back (delayed) instead of holding one of the worker's slots while a
 * slow receiver hangs.
 */
export class HostLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perHost: number) {}

  /** A release function, or undefined when the host already has `perHost` calls in flight. */
  tryAcquire(host: string): (() => void) | undefined {
    const current = this.inFlight.get(host) ?? 0;
    if (current >= this.perHost) return undefined;
    this.inFlight.set(host, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(host) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(host);
      else this.inFlight.set(host, left);
    };
  }

  inFlightFor(host: string): number {
    return this.inFlight.get(host) ?? 0;
  }
}
