import { CreateTasksSchema1763700000200 } from './1763700000200-CreateTasksSchema';
import { IndexTasksForHistory1763700000201 } from './1763700000201-IndexTasksForHistory';
import { IndexOpenTasksByAccount1763700000202 } from './1763700000202-IndexOpenTasksByAccount';
import { TaskWebhookFormat1763700000203 } from './1763700000203-TaskWebhookFormat';
import { ClaimAsHeapOnlyUpdate1763700000204 } from './1763700000204-ClaimAsHeapOnlyUpdate';

/** This domain's migrations, oldest first. Composed with the other domains' by the migrate command. */
export const TASKS_MIGRATIONS = [
  CreateTasksSchema1763700000200,
  IndexTasksForHistory1763700000201,
  IndexOpenTasksByAccount1763700000202,
  TaskWebhookFormat1763700000203,
  ClaimAsHeapOnlyUpdate1763700000204,
];
