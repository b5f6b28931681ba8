/**
 * The task state machine as pure functions (trigger.dev's statuses.ts).
 * Every status write in TaskRepository is a conditional UPDATE whose allowed
 * source states come from `allowedSources`, so a lost race changes nothing.
 */
export const TaskStatus = {
  Created: 'created',
  Processing: 'processing',
  Completed: 'completed',
  Failed: 'failed',
  Deleted: 'deleted',
} as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

const TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  // created → failed: the sweeper, or a run that cannot even start.
  // created → completed/failed: a run that ended before it claimed the task
  // claims it in its terminal write (decision 0122).
  created: ['processing', 'completed', 'failed', 'deleted'],
  // processing → processing: a stalled run picked up again by another worker (attempt + 1).
  processing: ['processing', 'completed', 'failed', 'deleted'],
  completed: ['deleted'],
  failed: ['deleted'],
  deleted: [],
};

export const TERMINAL_STATUSES = ['completed', 'failed'] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/** completed and failed are terminal; deleted is gone (never shown, never left). */
export function isTerminal(status: TaskStatus): status is TerminalStatus {
  return status === 'completed' || status === 'failed';
}

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states a conditional UPDATE to `to` may start from. */
export function allowedSources(to: TaskStatus): TaskStatus[] {
  return (Object.keys(TRANSITIONS) as TaskStatus[]).filter((from) => canTransition(from, to));
}
