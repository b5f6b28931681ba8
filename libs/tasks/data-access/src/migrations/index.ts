import { CreateTasksSchema1763700000200 } from './1763700000200-CreateTasksSchema';

/** This domain's migrations, oldest first. Composed with the other domains' by the migrate command. */
export const TASKS_MIGRATIONS = [CreateTasksSchema1763700000200];
