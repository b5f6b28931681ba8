import { sql } from 'kysely';
import type { DataSource, EntityManager } from 'typeorm';
import { runStatement } from '@genhub/database';
import { type NewTask, tasksStatements, withTaskCreated } from '@genhub/tasks-data-access';

/** Inserts a `created` task with the tasks domain's own step, minus the reservation; returns its creation time. */
export async function insertTask(db: DataSource | EntityManager, task: NewTask): Promise<Date> {
  const manager = 'isInitialized' in db ? db.manager : db;
  const rows = await runStatement(
    manager,
    withTaskCreated(tasksStatements, task, sql<boolean>`true`)
      .selectFrom('task_created')
      .select('created_at'),
  );
  if (!rows[0]) throw new Error(`task ${task.id} was not inserted`);
  return rows[0].created_at;
}
