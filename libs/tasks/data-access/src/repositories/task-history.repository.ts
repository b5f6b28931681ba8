import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeysetPosition } from '@genhub/database';
import type { TaskTimings } from '../rows/task.row';
import type { TaskStatus } from '../task-status';

/** Where a page starts: after the task with this (created_at, id), newest first. */
export type HistoryPosition = KeysetPosition;

export interface HistoryFilter {
  accountId: string;
  statuses?: readonly TaskStatus[];
  /** A model slug or the start of one (`local/`, `local/simulator`). */
  modelPrefix?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  after?: HistoryPosition;
  limit: number;
  includeInput: boolean;
}

/** A status a listed task can have: the history never holds deleted tasks. */
export type HistoryStatus = Exclude<TaskStatus, 'deleted'>;

/** One task of the history, as its public view needs it. */
export interface HistoryRow {
  id: string;
  model: string;
  status: HistoryStatus;
  code: number | null;
  error: string | null;
  outputs: string[] | null;
  timings: TaskTimings | null;
  createdAt: Date;
  input?: Record<string, unknown>;
  /** This row as a page position (exact to the microsecond). */
  position: HistoryPosition;
}

interface Row {
  id: string;
  model: string;
  status: HistoryStatus;
  code: number | null;
  error: string | null;
  outputs: string[] | null;
  timings: TaskTimings | null;
  created_at: Date;
  exact_created_at: string;
  input?: Record<string, unknown>;
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * An account's tasks, newest first, a keyset page at a time: one range of the
 * `tasks_history` index whatever the depth (no OFFSET). Deleted tasks never
 * appear; other accounts' never can (every query is scoped by account).
 */
@Injectable()
export class TaskHistoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async page(filter: HistoryFilter): Promise<HistoryRow[]> {
    const params: unknown[] = [filter.accountId];
    // deleted_at names the index's predicate; the status test holds as well (a deletion sets both).
    const where = [`account_id = $1`, `deleted_at IS NULL`, `status <> 'deleted'`];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (filter.statuses?.length) add((n) => `status = ANY(${n})`, filter.statuses);
    if (filter.modelPrefix) add((n) => `model LIKE ${n}`, likePrefix(filter.modelPrefix));
    if (filter.createdAfter) add((n) => `created_at > ${n}`, filter.createdAfter);
    if (filter.createdBefore) add((n) => `created_at < ${n}`, filter.createdBefore);
    if (filter.after) {
      params.push(filter.after.createdAt, filter.after.id);
      where.push(
        `(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`,
      );
    }
    params.push(filter.limit);
    const rows: Row[] = await this.dataSource.query(
      `SELECT id, model, status, code, error, outputs, timings, created_at,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS exact_created_at
              ${filter.includeInput ? ', input' : ''}
         FROM tasks.tasks
        WHERE ${where.join(' AND ')}
        ORDER BY created_at DESC, id DESC
        LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({
      id: r.id,
      model: r.model,
      status: r.status,
      code: r.code,
      error: r.error,
      outputs: r.outputs,
      timings: r.timings,
      createdAt: r.created_at,
      ...(filter.includeInput ? { input: r.input } : {}),
      position: { createdAt: r.exact_created_at, id: r.id },
    }));
  }
}
