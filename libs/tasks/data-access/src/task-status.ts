import {
  TERMINAL_TASK_STATUSES,
  type TaskStatus as ShownTaskStatus,
  type TerminalTaskStatus,
} from '@genhub/contracts';

/**
 * A stored task's status: the ones the interface shows (stated in the
 * contracts, docs/interface.md "Task states") and `deleted`, which is never
 * shown. Which may follow which is the task engine's rule.
 */
export type TaskStatus = ShownTaskStatus | 'deleted';
export const TaskStatus = {
  Created: 'created',
  Processing: 'processing',
  Completed: 'completed',
  Failed: 'failed',
  Deleted: 'deleted',
} as const satisfies Record<string, TaskStatus>;

export const TERMINAL_STATUSES = TERMINAL_TASK_STATUSES;
export type TerminalStatus = TerminalTaskStatus;

/** completed and failed are terminal; deleted is gone (never shown, never left). */
export function isTerminal(status: TaskStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly TaskStatus[]).includes(status);
}
