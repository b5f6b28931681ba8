import type { DataSource, EntityManager } from 'typeorm';

/** One caller's statements, run with the manager of the batch it lands in. */
export type BatchWork<T> = (manager: EntityManager) => Promise<T>;

interface Pending {
  /** The account: calls of one key keep their arrival order in a batch. */
  key: string;
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

export interface GroupCommitOptions {
  /** Batches of one line in flight at once. */
  perLine: number;
  /**
   * Keys share this many lines (each key always the same one), so a batch may
   * hold several accounts' calls; absent, each key has a line of its own.
   */
  lanes?: number;
  /**
   * With `lanes`: calls in flight in this batcher (running or waiting) from
   * which a key with none in flight is sent to its lane; below, it gets a
   * line of its own. A key keeps the line its calls are in until they are
   * all answered, so one key's calls stay in arrival order. Absent: lanes
   * always.
   */
  lanesFromInFlight?: number;
  /** Calls in one batch at most. */
  maxBatch: number;
  /** Told each batch's size (a metric). */
  onBatch?(size: number): void;
}

/**
 * Group commit per line (a generic helper: its callers choose the keys and the
 * numbers; the task engine keys by account, decision 0118): at most `perLine` batches of one line in flight;
 * calls that arrive while they are all busy wait together and go as ONE
 * transaction when a slot frees, so they share one lock wait and one commit
 * (one WAL flush) instead of queueing on the balance row one by one. A line
 * is a key (an account), or with `lanes` one of that many lines the keys are
 * spread over, always or only under load
 * (`lanesFromInFlight`; decision 0118): then a batch holds several accounts'
 * calls, ordered by key, so every such transaction takes balance rows in one
 * global order and two of them can never deadlock. One key's calls keep
 * their arrival order. A batch of single-statement calls is queued on its
 * connection at once and pipelined (run back to back, in batch order). Each
 * call still gets its own answer, exactly as if it had run alone at that
 * point in the order; answers are given only after the commit. A call alone
 * runs without a transaction (unless `atomic`). If a batch fails, nothing of
 * it stayed (rollback) and each call runs again alone, so one call's error
 * never becomes another's.
 */
export class GroupCommit {
  private readonly lines = new Map<string, Line>();
  /** Keys with calls in flight: the line they are in and how many. */
  private readonly keys = new Map<string, { line: string; calls: number }>();
  private inFlight = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: GroupCommitOptions,
  ) {}

  run<T>(key: string, work: BatchWork<T>, atomic = false): Promise<T> {
    const held = this.keys.get(key) ?? { line: this.lineFor(key), calls: 0 };
    this.keys.set(key, held);
    held.calls++;
    this.inFlight++;
    return this.enqueue<T>(held.line, key, work, atomic).finally(() => {
      this.inFlight--;
      if (--held.calls === 0) this.keys.delete(key);
    });
  }

  /** A key's own line, or its lane (from lanesFromInFlight calls in flight, when set). */
  private lineFor(key: string): string {
    const { lanes, lanesFromInFlight = 0 } = this.options;
    return lanes && this.inFlight >= lanesFromInFlight ? laneOf(key, lanes) : key;
  }

  private enqueue<T>(
    lineKey: string,
    key: string,
    work: BatchWork<T>,
    atomic: boolean,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let line = this.lines.get(lineKey);
      if (!line) this.lines.set(lineKey, (line = { running: 0, pending: [] }));
      line.pending.push({
        key,
        work,
        atomic,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.drain(lineKey, line);
    });
  }

  /** Lines with calls running or waiting. */
  get size(): number {
    return this.lines.size;
  }

  private drain(lineKey: string, line: Line): void {
    while (line.running < this.options.perLine && line.pending.length) {
      const batch = line.pending.splice(0, this.options.maxBatch);
      // Stable: one key's calls stay in arrival order.
      if (this.options.lanes) batch.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      line.running++;
      void this.execute(batch).finally(() => {
        line.running--;
        if (line.pending.length) this.drain(lineKey, line);
        else if (line.running === 0) this.lines.delete(lineKey);
      });
    }
  }

  private async execute(batch: Pending[]): Promise<void> {
    this.options.onBatch?.(batch.length);
    if (batch.length === 1) return this.alone(batch[0]);
    let results: unknown[];
    try {
      results = await this.dataSource.transaction(async (manager) => {
        // Single statements are all queued on the connection at once, in this order:
        // the pool pipelines them (written together, run back to back), so the rows
        // this transaction locks wait on PostgreSQL alone, not on this event loop.
        if (!batch.some((call) => call.atomic))
          return Promise.all(batch.map((call) => call.work(manager)));
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

/** The line a key belongs to: FNV-1a of its characters, modulo the lanes. */
export function laneOf(key: string, lanes: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return String((hash >>> 0) % lanes);
}
