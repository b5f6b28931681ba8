import type { TaskStatus } from '@genhub/contracts';

// Keyed by the contracts' TaskStatus: a status added to or taken from the
// contracts fails the console's type check here, not in a user's browser.
const STATUS_KEYS: Record<TaskStatus, true> = {
  created: true,
  processing: true,
  completed: true,
  failed: true,
};

/** Every task status, for the history's filter. */
export const TASK_STATUSES = Object.keys(STATUS_KEYS) as TaskStatus[];
