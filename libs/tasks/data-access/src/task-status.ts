/** A task's statuses (docs/interface.md, "Task status"); which move to which is the task engine's rule. */
export const TaskStatus = {
  Created: 'created',
  Processing: 'processing',
  Completed: 'completed',
  Failed: 'failed',
  Deleted: 'deleted',
} as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

export const TERMINAL_STATUSES = ['completed', 'failed'] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/** completed and failed are terminal; deleted is gone (never shown, never left). */
export function isTerminal(status: TaskStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly TaskStatus[]).includes(status);
}
