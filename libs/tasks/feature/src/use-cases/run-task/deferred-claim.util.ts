/**
 * The claim of a run that started from its job's copy of the task (decision
 * 0122), made only when it is needed and at most once: `afterMs` into the run
 * (from then on the task shows `processing` and the claim fences older runs),
 * or as soon as the run needs its attempt (to name a stored output). A run
 * that ends before either never makes it here: its terminal write claims the
 * task (`started` is still false then).
 */
export class DeferredClaim<T> {
  private claiming?: Promise<T | undefined>;
  private readonly timer: NodeJS.Timeout;

  constructor(
    /** The claim itself: the claimed task, or undefined when it is no longer open. */
    private readonly claimTask: () => Promise<T | undefined>,
    afterMs: number,
    /** Told once when the claim finds the task no longer open (ended or deleted). */
    private readonly onGone: () => void,
  ) {
    // A failed claim surfaces where the run awaits it (claim()), not here.
    this.timer = setTimeout(() => void this.claim().catch(() => undefined), afterMs);
  }

  /** Whether the claim was made (or is under way). */
  get started(): boolean {
    return this.claiming !== undefined;
  }

  /** Makes the claim if not yet made; the claimed task, or undefined when it is gone. */
  claim(): Promise<T | undefined> {
    clearTimeout(this.timer);
    this.claiming ??= this.claimTask().then((task) => {
      if (task === undefined) this.onGone();
      return task;
    });
    return this.claiming;
  }

  /** No claim from here on unless asked (the run ended). */
  cancel(): void {
    clearTimeout(this.timer);
  }
}
