// The task states of the public interface, stated once (docs/interface.md, "Task
// states"): what a task shows, which of them are still open, which are final.

/** Every state a task shows, in the order a task passes through them. */
export const TASK_STATUSES = ['created', 'processing', 'completed', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The open states: the task still waits or runs, holds a reservation, and may yet change. */
export const OPEN_TASK_STATUSES = [
  'created',
  'processing',
] as const satisfies readonly TaskStatus[];
export type OpenTaskStatus = (typeof OPEN_TASK_STATUSES)[number];

/** The final states: a task in one of them never changes again (a deletion aside). */
export const TERMINAL_TASK_STATUSES = [
  'completed',
  'failed',
] as const satisfies readonly TaskStatus[];
export type TerminalTaskStatus = (typeof TERMINAL_TASK_STATUSES)[number];
