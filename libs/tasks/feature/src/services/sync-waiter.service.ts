import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { PubSubChannel, PubSubService } from '@genhub/queue';

type Wake = () => void;

/** How long the subscription outlives the last sync call: a steady trickle keeps it. */
export const UNSUBSCRIBE_AFTER_MS = 10_000;

/**
 * Waits for tasks to turn terminal without polling: ONE subscription to
 * PubSubChannel.TaskTerminal per process, a map of waiters, and one shared sweep
 * timer (every 100 ms while anyone waits) instead of a timer per waiter. The
 * notice is a hint: callers re-read the row when woken. The subscription is
 * held only while sync calls are under way (and UNSUBSCRIBE_AFTER_MS after):
 * every task's notice would otherwise wake every gateway, sync callers or not.
 */
@Injectable()
export class SyncWaiter implements BeforeApplicationShutdown {
  private readonly waiters = new Map<string, Set<Wake>>();
  private readonly deadlines = new Map<Wake, number>();
  private subscribed?: Promise<() => void>;
  private holders = 0;
  private dropTimer?: NodeJS.Timeout;
  private sweep?: NodeJS.Timeout;
  /** Set at shutdown: no wait may start or last any more. */
  closing = false;
  /** See UNSUBSCRIBE_AFTER_MS (tests shorten it). */
  unsubscribeAfterMs = UNSUBSCRIBE_AFTER_MS;

  constructor(private readonly pubsub: PubSubService) {}

  /**
   * Holds the subscription for one sync call; call before the task can
   * finish, so no notice is missed, and call the returned release when the
   * call is over (also when it fails).
   */
  async hold(): Promise<() => void> {
    this.holders++;
    clearTimeout(this.dropTimer);
    this.dropTimer = undefined;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--this.holders === 0) this.dropLater();
    };
    // A failed subscription (Redis down) is not kept: the next caller tries again.
    this.subscribed ??= this.pubsub
      .subscribe(PubSubChannel.TaskTerminal, (id) => this.wake(id))
      .catch((error: unknown) => {
        this.subscribed = undefined;
        throw error;
      });
    try {
      await this.subscribed;
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** Whether this process is subscribed (or subscribing) to terminal notices. */
  get subscribedToNotices(): boolean {
    return this.subscribed !== undefined;
  }

  private dropLater(): void {
    this.dropTimer = setTimeout(() => {
      this.dropTimer = undefined;
      const subscribed = this.subscribed;
      if (this.holders || !subscribed) return;
      this.subscribed = undefined;
      void subscribed.then((unsubscribe) => unsubscribe()).catch(() => undefined);
    }, this.unsubscribeAfterMs);
    this.dropTimer.unref();
  }

  /**
   * Registers a waiter at once (call before re-reading the row, so a notice
   * arriving in between is not missed). `done` resolves true on a terminal
   * notice, false at the deadline or on `cancel()`.
   */
  watch(taskId: string, timeoutMs: number): { done: Promise<boolean>; cancel(): void } {
    if (this.closing) return { done: Promise.resolve(false), cancel: () => undefined };
    let cancel: () => void = () => undefined;
    const done = new Promise<boolean>((resolve) => {
      let set = this.waiters.get(taskId);
      if (!set) this.waiters.set(taskId, (set = new Set()));
      const finish = (woken: boolean) => {
        set.delete(wake);
        if (!set.size) this.waiters.delete(taskId);
        this.deadlines.delete(wake);
        resolve(woken);
      };
      const wake: Wake & { expire?: () => void } = () => finish(true);
      wake.expire = () => finish(false);
      cancel = wake.expire;
      set.add(wake);
      this.deadlines.set(wake, Date.now() + timeoutMs);
      this.ensureSweep();
    });
    return { done, cancel: () => cancel() };
  }

  get size(): number {
    return this.deadlines.size;
  }

  private wake(taskId: string): void {
    for (const w of [...(this.waiters.get(taskId) ?? [])]) w();
  }

  private ensureSweep(): void {
    if (this.sweep) return;
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [wake, deadline] of this.deadlines)
        if (deadline <= now) (wake as Wake & { expire: () => void }).expire();
      if (!this.deadlines.size) {
        clearInterval(this.sweep);
        this.sweep = undefined;
      }
    }, 100);
    this.sweep.unref();
  }

  /**
   * Shutdown: end every wait now (the processing shape), before the HTTP
   * server drains its requests — else a sync call holds the exit until the grace runs out.
   */
  beforeApplicationShutdown(): void {
    this.closing = true;
    clearTimeout(this.dropTimer);
    for (const wake of [...this.deadlines.keys()]) (wake as Wake & { expire: () => void }).expire();
    clearInterval(this.sweep);
  }
}
