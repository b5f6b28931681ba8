import type { EntityManager } from 'typeorm';
import type { NewTask, SqlFragment, TaskRepository } from '@genhub/tasks-data-access';

/** A reservation that always succeeds and writes nothing: a task row without the ledger. */
export const UNCONDITIONAL: SqlFragment = {
  sql: 'granted AS (SELECT 1 AS one)',
  params: [],
  yields: 'granted',
};

/** Inserts a `created` task the way submit does, minus the reservation; returns its creation time. */
export async function insertTask(
  tasks: TaskRepository,
  task: NewTask,
  manager?: EntityManager,
): Promise<Date> {
  const created = await tasks.insertReserved(UNCONDITIONAL, task, [], manager);
  if (!created) throw new Error(`task ${task.id} was not inserted`);
  return created.createdAt;
}
