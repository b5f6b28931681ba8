import { OPEN_TASK_STATUSES } from '@genhub/contracts';
import { TaskStatus } from '@genhub/tasks-data-access';

/**
 * Which status may follow which (trigger.dev's statuses.ts). Every status
 * write is a conditional UPDATE whose source statuses come from
 * `allowedSources`, so a lost race changes nothing.
 */
const TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  // created → failed: the sweeper, or a run that cannot even start.
  created: ['processing', 'failed', 'deleted'],
  // processing → processing: a stalled run picked up again by another worker (attempt + 1).
  processing: ['processing', 'completed', 'failed', 'deleted'],
  completed: ['deleted'],
  failed: ['deleted'],
  deleted: [],
};

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The statuses a conditional UPDATE to `to` may start from. */
export function allowedSources(to: TaskStatus): TaskStatus[] {
  return (Object.keys(TRANSITIONS) as TaskStatus[]).filter((from) => canTransition(from, to));
}

/**
 * Open: a run may still end it (the stuck-task sweeper's and `tasks:requeue`'s
 * set), as the contracts state it; the spec checks the table agrees.
 */
export const OPEN_STATUSES: readonly TaskStatus[] = OPEN_TASK_STATUSES;
