import type { TaskStatus } from '@genhub/tasks-data-access';

/**
 * The single answer to "is this task's reservation captured or released?"
 * for every path a task takes (docs/interface.md, "Billing semantics"; decisions 0090,
 * 0132). The ledger's steps carry the answer out; nothing else decides it.
 */
export type Settlement = 'capture' | 'release' | 'none';

export type SettlementPath =
  /** A run's terminal statement: completed is charged, failed is not. */
  | { path: 'run-ended'; status: 'completed' | 'failed' }
  /** DELETE from the state the task was in. */
  | { path: 'deleted'; from: TaskStatus }
  /**
   * `tasks:requeue` found a finished task whose reservation is still open:
   * the settle job that would have closed it was lost with Redis.
   */
  | {
      path: 'recovered';
      status: 'completed' | 'failed' | 'deleted';
      attempt: number;
      code: number | null;
    }
  /** `webhooks:replay`: a fresh delivery round; money was settled when the task ended. */
  | { path: 'webhook-replayed' };

export function settlementFor(at: SettlementPath): Settlement {
  switch (at.path) {
    case 'run-ended':
      return at.status === 'completed' ? 'capture' : 'release';
    case 'deleted':
      // Still created: nothing ran, released. Processing: the run started, captured.
      // Completed or failed: its run already captured or released.
      if (at.from === 'created') return 'release';
      if (at.from === 'processing') return 'capture';
      return 'none';
    case 'recovered':
      // Finished by a run: as the run decided (a settlement written before runs
      // settled inline, decision 0090). Deleted: captured once a run had
      // started (attempt > 0) and not failed; released while still created.
      if (at.status !== 'deleted') return settlementFor({ path: 'run-ended', status: at.status });
      return at.attempt > 0 && (at.code === null || at.code === 0) ? 'capture' : 'release';
    case 'webhook-replayed':
      return 'none';
  }
}
