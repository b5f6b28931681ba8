/** A call waiting for the batch that will answer it. */
export interface WaitingCall<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs calls in batches: a call that arrives while no batch runs starts one at
 * once; calls that arrive while one runs wait and go together in the next.
 * One statement for many rows costs about what one costs, so a burst (say,
 * deliveries put back for a saturated host) takes a handful of round trips,
 * and a lone call waits for nothing. `run` answers each input, in order; if it
 * throws, every call of that batch gets the error.
 */
export class CoalescingBatch<I, O> {
  private readonly waiting: WaitingCall<I, O>[] = [];
  private running = false;

  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxBatch = 500,
  ) {}

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const outputs = await this.run(batch.map((c) => c.input));
        batch.forEach((c, i) => c.resolve(outputs[i]));
      } catch (error) {
        for (const c of batch) c.reject(error);
      }
    }
    this.running = false;
  }
}
