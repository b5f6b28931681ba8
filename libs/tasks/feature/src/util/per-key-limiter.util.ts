interface Line {
  running: number;
  waiting: (() => void)[];
}

/**
 * At most `perKey` calls at once for one key, the rest queued in arrival
 * order; calls for different keys do not wait for each other. Holds an entry
 * only for keys with calls running or queued.
 */
export class PerKeyLimiter {
  private readonly lines = new Map<string, Line>();

  constructor(private readonly perKey: number) {}

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = { running: 0, waiting: [] }));
    if (line.running < this.perKey) line.running++;
    else await new Promise<void>((resolve) => line.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = line.waiting.shift();
      // The slot passes straight to the next call: `running` is unchanged.
      if (next) next();
      else if (--line.running === 0) this.lines.delete(key);
    }
  }

  /** Keys with calls running or queued. */
  get size(): number {
    return this.lines.size;
  }
}
