import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '@genhub/database';
import { StoredTask } from '../rows/task.row';
import type { TaskStatus } from '../task-status';
import {
  isTaskId,
  TASK_COLUMNS,
  taskFromRow,
  type TaskResultFields,
  type TaskRow,
} from './task-row.mapper';

/**
 * Tasks. Reads by id are scoped by account; every status write is one
 * conditional UPDATE whose source states come from the lifecycle functions,
 * and reports whether it won.
 */
@Injectable()
export class TaskRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The caller's own task, unless deleted; undefined for unknown, foreign or malformed ids. */
  async findOwnedTask(accountId: string, id: string): Promise<StoredTask | undefined> {
    if (!isTaskId(id)) return undefined;
    const rows: TaskRow[] = await this.dataSource.query(
      `SELECT * FROM tasks.tasks WHERE id = $1 AND account_id = $2 AND status <> 'deleted'`,
      [id, accountId],
    );
    return rows[0] ? taskFromRow(rows[0]) : undefined;
  }

  /**
   * The caller's own task, deleted or not (a Replicate-compatible prediction
   * reads `canceled` once deleted, decision 0137); undefined for unknown,
   * foreign or malformed ids.
   */
  async findOwnedTaskEvenDeleted(accountId: string, id: string): Promise<StoredTask | undefined> {
    if (!isTaskId(id)) return undefined;
    const rows: TaskRow[] = await this.dataSource.query(
      `SELECT * FROM tasks.tasks WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    return rows[0] ? taskFromRow(rows[0]) : undefined;
  }

  /** Whether the task is the caller's, deleted or not (an event stream resumed after a delete). */
  async isOwnedBy(accountId: string, id: string): Promise<boolean> {
    if (!isTaskId(id)) return false;
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM tasks.tasks WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    return rows.length > 0;
  }

  /**
   * The result fields of several tasks in one read (ids must be UUIDs),
   * deleted ones left out; the caller checks the owner.
   */
  async findResults(ids: string[]): Promise<TaskResultFields[]> {
    const rows: Pick<
      TaskRow,
      | 'id'
      | 'account_id'
      | 'model'
      | 'status'
      | 'code'
      | 'error'
      | 'outputs'
      | 'timings'
      | 'created_at'
    >[] = await this.dataSource.query(
      `SELECT id, account_id, model, status, code, error, outputs, timings, created_at
         FROM tasks.tasks WHERE id = ANY($1::uuid[]) AND status <> 'deleted'`,
      [ids],
    );
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      model: r.model,
      status: r.status,
      code: r.code,
      error: r.error,
      outputs: r.outputs,
      timings: r.timings,
      createdAt: r.created_at,
    }));
  }

  /** The caller's task submitted with an Idempotency-Key (issue 10), deleted or not. */
  async findByIdempotencyKey(
    accountId: string,
    key: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StoredTask | undefined> {
    const rows: TaskRow[] = await manager.query(
      `SELECT * FROM tasks.tasks WHERE account_id = $1 AND idempotency_key = $2`,
      [accountId, key],
    );
    return rows[0] ? taskFromRow(rows[0]) : undefined;
  }

  /** Frees an Idempotency-Key used before `before` (an expired key may be used again). */
  async detachIdempotencyKey(
    manager: EntityManager,
    accountId: string,
    key: string,
    before: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE tasks.tasks SET idempotency_key = NULL
        WHERE account_id = $1 AND idempotency_key = $2 AND created_at < $3`,
      [accountId, key, before],
    );
  }

  /**
   * Whether this database holds the task, in any status (rows are never removed:
   * a deleted task is marked). A run job for a task it does not hold came from
   * another installation's database (decision 0126).
   */
  async holds(id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM tasks.tasks WHERE id = $1`, [
      id,
    ]);
    return rows.length > 0;
  }

  /**
   * Claims a task for a run, from the statuses the lifecycle allows: created →
   * processing, or processing → processing when a stalled run is picked up
   * again (attempt + 1, so the old run can no longer finish it). Undefined
   * when the task is in none of them.
   */
  async claimForRun(id: string, from: readonly TaskStatus[]): Promise<StoredTask | undefined> {
    const rows = await preparedQuery<[TaskRow[], number]>(
      this.dataSource.manager,
      `UPDATE tasks.tasks SET status = 'processing', attempt = attempt + 1, started_at = clock_timestamp()
        WHERE id = $1 AND status = ANY($2)
        RETURNING ${TASK_COLUMNS}`,
      [id, from],
    );
    const row = rows[0]?.[0];
    return row ? taskFromRow(row) : undefined;
  }

  /**
   * Marks the caller's task deleted if it is still in the state the caller
   * saw (so the settlement decided from that state is the right one); the
   * caller checks the lifecycle allows it.
   */
  async markDeleted(
    manager: EntityManager,
    accountId: string,
    id: string,
    from: TaskStatus,
  ): Promise<boolean> {
    const rows: [unknown[], number] = await manager.query(
      `UPDATE tasks.tasks SET status = 'deleted', deleted_at = clock_timestamp()
        WHERE id = $1 AND account_id = $2 AND status = $3
        RETURNING id`,
      [id, accountId, from],
    );
    return rows[0].length === 1;
  }

  /** Seconds from submit to result of the last `limit` completed runs of one model and channel. */
  async recentRunSeconds(model: string, channel: string, limit: number): Promise<number[]> {
    const rows: { seconds: number }[] = await this.dataSource.query(
      `SELECT extract(epoch FROM finished_at - created_at)::float8 AS seconds
         FROM tasks.tasks
        WHERE model = $1 AND channel = $2 AND code = 0 AND status = 'completed'
        ORDER BY finished_at DESC
        LIMIT $3`,
      [model, channel, limit],
    );
    return rows.map((r) => Number(r.seconds));
  }

  /**
   * Tasks stuck beyond their own time limit plus `graceMs` (the stuck-task
   * sweeper): open (`processing`) for that long since their last claim, or
   * (`created`) that long after submit (their job was lost or gave up).
   */
  async findStuck(
    open: readonly TaskStatus[],
    graceMs: number,
    limit: number,
  ): Promise<StoredTask[]> {
    const rows: TaskRow[] = await this.dataSource.query(
      `SELECT * FROM tasks.tasks
        WHERE status = ANY($3) AND finished_at IS NULL AND deleted_at IS NULL
          AND coalesce(started_at, created_at)
              + make_interval(secs => (time_limit_ms + $1::bigint) / 1000.0) < clock_timestamp()
        ORDER BY created_at LIMIT $2`,
      [graceMs, limit, open],
    );
    return rows.map(taskFromRow);
  }
}
