import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { TaskEntity, TaskTimings } from '../entities/task.entity';
import { allowedSources, canTransition, TaskStatus } from '../lifecycle/task-lifecycle';

export interface NewTask {
  id: string;
  accountId: string;
  model: string;
  channel: string;
  category: string;
  input: Record<string, unknown>;
  webhookUrl: string | null;
  outputPrefix: string | null;
  priceUnits: number;
  timeLimitMs: number;
  idempotencyKey?: string | null;
  requestHash?: string | null;
}

export interface CompletedFields {
  outputs: string[];
  outputKeys: string[];
  timings: TaskTimings;
}

export interface FailedFields {
  code: number;
  error: string;
  timings: TaskTimings | null;
}

interface TaskRow {
  id: string;
  account_id: string;
  model: string;
  channel: string;
  category: string;
  status: TaskStatus;
  input: Record<string, unknown>;
  webhook_url: string | null;
  output_prefix: string | null;
  price_units: number;
  code: number | null;
  error: string | null;
  outputs: string[] | null;
  output_keys: string[] | null;
  timings: TaskTimings | null;
  attempt: number;
  time_limit_ms: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  deleted_at: Date | null;
  idempotency_key: string | null;
  request_hash: string | null;
}

export function taskFromRow(r: TaskRow): TaskEntity {
  return Object.assign(new TaskEntity(), {
    id: r.id,
    accountId: r.account_id,
    model: r.model,
    channel: r.channel,
    category: r.category,
    status: r.status,
    input: r.input,
    webhookUrl: r.webhook_url,
    outputPrefix: r.output_prefix,
    priceUnits: r.price_units,
    code: r.code,
    error: r.error,
    outputs: r.outputs,
    outputKeys: r.output_keys,
    timings: r.timings,
    attempt: r.attempt,
    timeLimitMs: r.time_limit_ms,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    deletedAt: r.deleted_at,
    idempotencyKey: r.idempotency_key,
    requestHash: r.request_hash,
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A task id as a client may send it: anything that is not a UUID simply does not exist. */
export function isTaskId(value: string): boolean {
  return UUID.test(value);
}

/**
 * Tasks. Reads by id are scoped by account; every status write is one
 * conditional UPDATE whose source states come from the lifecycle functions,
 * and reports whether it won.
 */
@Injectable()
export class TaskRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts a new `created` task inside the submit transaction; returns its creation time. */
  async insert(manager: EntityManager, task: NewTask): Promise<Date> {
    const rows: { created_at: Date }[] = await manager.query(
      `INSERT INTO tasks.tasks (id, account_id, model, channel, category, input, webhook_url,
         output_prefix, price_units, time_limit_ms, idempotency_key, request_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       RETURNING created_at`,
      [
        task.id,
        task.accountId,
        task.model,
        task.channel,
        task.category,
        JSON.stringify(task.input),
        task.webhookUrl,
        task.outputPrefix,
        task.priceUnits,
        task.timeLimitMs,
        task.idempotencyKey ?? null,
        task.requestHash ?? null,
      ],
    );
    return rows[0].created_at;
  }

  /** The caller's own task, unless deleted; undefined for unknown, foreign or malformed ids. */
  async findOwnedTask(accountId: string, id: string): Promise<TaskEntity | undefined> {
    if (!isTaskId(id)) return undefined;
    const rows: TaskRow[] = await this.dataSource.query(
      `SELECT * FROM tasks.tasks WHERE id = $1 AND account_id = $2 AND status <> 'deleted'`,
      [id, accountId],
    );
    return rows[0] ? taskFromRow(rows[0]) : undefined;
  }

  /** The caller's task submitted with an Idempotency-Key (issue 10), deleted or not. */
  async findByIdempotencyKey(
    accountId: string,
    key: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TaskEntity | undefined> {
    const rows: TaskRow[] = await manager.query(
      `SELECT * FROM tasks.tasks WHERE account_id = $1 AND idempotency_key = $2`,
      [accountId, key],
    );
    return rows[0] ? taskFromRow(rows[0]) : undefined;
  }

  /**
   * Claims a task for a run: created → processing, or processing → processing
   * when a stalled run is picked up again (attempt + 1, so the old run can no
   * longer finish it). Undefined when the task is terminal or deleted.
   */
  async claimForRun(id: string): Promise<TaskEntity | undefined> {
    const rows: [TaskRow[], number] = await this.dataSource.query(
      `UPDATE tasks.tasks SET status = 'processing', attempt = attempt + 1, started_at = clock_timestamp()
        WHERE id = $1 AND status = ANY($2)
        RETURNING *`,
      [id, allowedSources('processing')],
    );
    const row = rows[0]?.[0];
    return row ? taskFromRow(row) : undefined;
  }

  /** processing → completed, only for the run that holds the latest attempt. */
  async complete(
    manager: EntityManager,
    id: string,
    attempt: number,
    fields: CompletedFields,
  ): Promise<TaskEntity | undefined> {
    return this.finish(manager, 'completed', id, attempt, [
      `code = 0, error = NULL, outputs = $4, output_keys = $5, timings = $6`,
      [
        JSON.stringify(fields.outputs),
        JSON.stringify(fields.outputKeys),
        JSON.stringify(fields.timings),
      ],
    ]);
  }

  /** → failed; `attempt` null for a task failed outside a run (the sweeper). */
  async fail(
    manager: EntityManager,
    id: string,
    attempt: number | null,
    fields: FailedFields,
  ): Promise<TaskEntity | undefined> {
    return this.finish(manager, 'failed', id, attempt, [
      `code = $4, error = $5, outputs = '[]'::jsonb, timings = $6`,
      [fields.code, fields.error, fields.timings ? JSON.stringify(fields.timings) : null],
    ]);
  }

  private async finish(
    manager: EntityManager,
    to: 'completed' | 'failed',
    id: string,
    attempt: number | null,
    [set, params]: [string, unknown[]],
  ): Promise<TaskEntity | undefined> {
    const rows: [TaskRow[], number] = await manager.query(
      `UPDATE tasks.tasks SET status = '${to}', finished_at = clock_timestamp(), ${set}
        WHERE id = $1 AND status = ANY($2) AND ($3::int IS NULL OR attempt = $3)
        RETURNING *`,
      [id, allowedSources(to), attempt, ...params],
    );
    const row = rows[0]?.[0];
    return row ? taskFromRow(row) : undefined;
  }

  /**
   * Marks the caller's task deleted if it is still in the state the caller
   * saw (so the settlement decided from that state is the right one).
   */
  async markDeleted(
    manager: EntityManager,
    accountId: string,
    id: string,
    from: TaskStatus,
  ): Promise<boolean> {
    if (!canTransition(from, 'deleted')) return false;
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
        WHERE model = $1 AND channel = $2 AND status = 'completed'
        ORDER BY finished_at DESC
        LIMIT $3`,
      [model, channel, limit],
    );
    return rows.map((r) => Number(r.seconds));
  }

  /** Non-terminal tasks created before `before` (the stuck-task sweeper). */
  async findStuck(before: Date, limit: number): Promise<TaskEntity[]> {
    const rows: TaskRow[] = await this.dataSource.query(
      `SELECT * FROM tasks.tasks
        WHERE status IN ('created', 'processing') AND created_at < $1
        ORDER BY created_at LIMIT $2`,
      [before, limit],
    );
    return rows.map(taskFromRow);
  }
}
