/** This domain's migrations, oldest first. Composed with the other domains' by the migrate command. */
export const TASKS_MIGRATIONS = [];
