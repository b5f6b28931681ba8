import type { DataSource, EntityManager } from 'typeorm';

/** One caller's statements, run with the manager of the batch it lands in. */
export type BatchWork<T> = (manager: EntityManager) => Promise<T>;

interface Pending {
  work: BatchWork<unknown>;
  /** Statements that must commit together even when the call runs alone. */
  atomic: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Line {
  running: number;
  pending: Pending[];
}

export interface AccountBatcherOptions {
  /** Batches of one key in flight at once. */
  perKey: number;
  /** Calls in one batch at most. */
  maxBatch: number;
  /** Told each batch's size (a metric). */
  onBatch?(size: number): void;
}

/**
 * Group commit per key (an account): at most `perKey` batches of one key in
 * flight; calls that arrive while they are all busy wait together and go as
 * ONE transaction when a slot frees, each call's statements in arrival
 * order, so they share one lock wait and one commit (one WAL flush) instead
 * of queueing on the balance row one by one. Each call still gets its own
 * answer, exactly as if it had run alone at that point in the order; answers
 * are given only after the commit. A call alone runs without a transaction
 * (unless `atomic`). If a batch fails, nothing of it stayed (rollback) and
 * each call runs again alone, so one call's error never becomes another's.
 */
export class AccountBatcher {
  private readonly lines = new Map<string, Line>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: AccountBatcherOptions,
  ) {}

  run<T>(key: string, work: BatchWork<T>, atomic = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let line = this.lines.get(key);
      if (!line) this.lines.set(key, (line = { running: 0, pending: [] }));
      line.pending.push({ work, atomic, resolve: resolve as (value: unknown) => void, reject });
      this.drain(key, line);
    });
  }

  /** Keys with calls running or waiting. */
  get size(): number {
    return this.lines.size;
  }

  private drain(key: string, line: Line): void {
    while (line.running < this.options.perKey && line.pending.length) {
      const batch = line.pending.splice(0, this.options.maxBatch);
      line.running++;
      void this.execute(batch).finally(() => {
        line.running--;
        if (line.pending.length) this.drain(key, line);
        else if (line.running === 0) this.lines.delete(key);
      });
    }
  }

  private async execute(batch: Pending[]): Promise<void> {
    this.options.onBatch?.(batch.length);
    if (batch.length === 1) return this.alone(batch[0]);
    let results: unknown[];
    try {
      results = await this.dataSource.transaction(async (manager) => {
        const answers: unknown[] = [];
        for (const call of batch) answers.push(await call.work(manager));
        return answers;
      });
    } catch {
      // Rolled back: each call runs again on its own and meets its own outcome.
      for (const call of batch) await this.alone(call);
      return;
    }
    batch.forEach((call, i) => call.resolve(results[i]));
  }

  private async alone(call: Pending): Promise<void> {
    try {
      call.resolve(
        await (call.atomic
          ? this.dataSource.transaction(call.work)
          : call.work(this.dataSource.manager)),
      );
    } catch (error) {
      call.reject(error);
    }
  }
}
