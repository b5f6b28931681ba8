import type { StoredTask, TaskTimings } from '../rows/task.row';
import type { OutboxRow } from './outbox.repository';
import type { SqlFragment } from './sql-fragment.util';

// What TaskRepository's writes take and give back.

export interface NewTask {
  id: string;
  accountId: string;
  model: string;
  channel: string;
  category: string;
  input: Record<string, unknown>;
  webhookUrl: string | null;
  outputPrefix: string | null;
  priceUnits: number;
  timeLimitMs: number;
  idempotencyKey?: string | null;
  requestHash?: string | null;
}

/** A new task written together with its reservation and its outbox rows. */
export interface CreatedTask {
  createdAt: Date;
  outbox: OutboxRow[];
}

/**
 * Writes of other domains joined to a terminal statement, each given the
 * condition "the terminal write won": the reservation's settlement, and the
 * webhook delivery (with its body) when the task asked for one.
 */
export interface JoinedWrites {
  settle?: (when: string) => SqlFragment;
  deliver?: (when: string) => SqlFragment;
}

/**
 * What a terminal write that won decided: its status fields and what only
 * the row knew (the attempt, the start a claiming write took, the finish
 * time). The rest of the row is what the caller wrote or already had; not
 * read back (the input and outputs would be parsed for nothing).
 */
export type FinishedRow = Pick<
  StoredTask,
  'id' | 'status' | 'code' | 'error' | 'attempt' | 'startedAt' | 'finishedAt'
>;

/** A terminal write that won, with the outbox rows written by the same statement. */
export interface FinishedTask {
  task: FinishedRow;
  outbox: OutboxRow[];
  /** Whether the settlement given to the statement (its `settled` CTE) settled the reservation. */
  settled: boolean;
}

/**
 * Which run may write a terminal status: the one holding this attempt
 * (`null`: whichever, for the stuck-task sweeper), or a run that started from
 * its job's copy of the task and never claimed it, which claims it in the
 * terminal write itself (decision 0122).
 */
export type FinishingRun = number | null | { unclaimedSince: Date };

export interface CompletedFields {
  outputs: string[];
  outputKeys: string[];
  timings: TaskTimings;
}

export interface FailedFields {
  code: number;
  error: string;
  timings: TaskTimings | null;
}
