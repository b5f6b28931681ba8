import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '@genhub/database';
import { StoredTask, TaskTimings } from '../rows/task.row';
import { allowedSources, canTransition, TaskStatus } from '../lifecycle/task-lifecycle.util';
import { OutboxItem, OutboxRow, outboxInsertCte, outboxParam } from './outbox.repository';
import { shiftParams, SqlFragment, StatementTexts } from './sql-fragment.util';
import {
  isTaskId,
  TASK_COLUMNS,
  taskFromRow,
  type TaskResultFields,
  type TaskRow,
} from './task-row.mapper';
import type {
  CompletedFields,
  CreatedTask,
  FailedFields,
  FinishedTask,
  FinishingRun,
  JoinedWrites,
  NewTask,
} from './task-writes.types';

/** The columns a terminal write returns (FinishedRow). */
type FinishedRowColumns = Pick<
  TaskRow,
  'id' | 'status' | 'code' | 'error' | 'attempt' | 'started_at' | 'finished_at'
>;

/** A version-2 run job's payload gets the new row's `created_at` (its other fields come from the caller). */
const STAMP_CREATED_AT = `CASE WHEN j.payload ? 'task'
      THEN jsonb_set(j.payload, '{task,createdAt}', to_jsonb(t.created_at)) ELSE j.payload END`;

/**
 * Tasks. Reads by id are scoped by account; every status write is one
 * conditional UPDATE whose source states come from the lifecycle functions,
 * and reports whether it won.
 */
@Injectable()
export class TaskRepository {
  /** The terminal statement's text per shape (status, claim, joined writes). */
  private readonly terminalStatements = new StatementTexts();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * ONE statement (one round trip, no BEGIN/COMMIT): `reservation` — CTEs
   * numbered from $1 whose `yields` CTE has a row only when the price was
   * reserved —
   * then the `created` task and its outbox rows, written only from that row.
   * A payload carrying the task's fixed fields (`task`, a version-2 run job)
   * gets the row's `created_at` in it. Undefined when nothing was reserved
   * (and so nothing was written). The balance row stays locked for this one
   * statement only.
   */
  async insertReserved(
    reservation: SqlFragment,
    task: NewTask,
    announce: OutboxItem[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CreatedTask | undefined> {
    const n = reservation.params.length;
    const p = (i: number) => `$${n + i}`;
    const rows = await preparedQuery<{ created_at: Date; outbox: OutboxRow[] }[]>(
      manager,
      `WITH ${reservation.sql},
       t AS (
         INSERT INTO tasks.tasks (id, account_id, model, channel, category, input, webhook_url,
           output_prefix, price_units, time_limit_ms, idempotency_key, request_hash)
         SELECT ${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}::jsonb, ${p(7)},
                ${p(8)}, ${p(9)}::bigint, ${p(10)}::int, ${p(11)}, ${p(12)}
           FROM ${reservation.yields}
         RETURNING created_at),
       ${outboxInsertCte('o', 't', n + 13, STAMP_CREATED_AT)}
       SELECT t.created_at, (SELECT coalesce(json_agg(o), '[]') FROM o) AS outbox FROM t`,
      [
        ...reservation.params,
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
        outboxParam(announce),
      ],
    );
    return rows[0] ? { createdAt: rows[0].created_at, outbox: rows[0].outbox } : undefined;
  }

  /** The caller's own task, unless deleted; undefined for unknown, foreign or malformed ids. */
  async findOwnedTask(accountId: string, id: string): Promise<StoredTask | undefined> {
    if (!isTaskId(id)) return undefined;
    const rows: TaskRow[] = await this.dataSource.query(
      `SELECT * FROM tasks.tasks WHERE id = $1 AND account_id = $2 AND status <> 'deleted'`,
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
    const rows: {
      id: string;
      account_id: string;
      model: string;
      status: TaskStatus;
      code: number | null;
      error: string | null;
      outputs: string[] | null;
      timings: TaskTimings | null;
      created_at: Date;
    }[] = await this.dataSource.query(
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
   * Claims a task for a run: created → processing, or processing → processing
   * when a stalled run is picked up again (attempt + 1, so the old run can no
   * longer finish it). Undefined when the task is terminal or deleted.
   */
  async claimForRun(id: string): Promise<StoredTask | undefined> {
    const rows = await preparedQuery<[TaskRow[], number]>(
      this.dataSource.manager,
      `UPDATE tasks.tasks SET status = 'processing', attempt = attempt + 1, started_at = clock_timestamp()
        WHERE id = $1 AND status = ANY($2)
        RETURNING ${TASK_COLUMNS}`,
      [id, allowedSources('processing')],
    );
    const row = rows[0]?.[0];
    return row ? taskFromRow(row) : undefined;
  }

  /**
   * → completed, only for the run that holds the latest attempt (or for a run
   * that never claimed the task, see FinishingRun); `announce` (the jobs that
   * follow) is written by the same statement, and only if the write won.
   */
  async completeAnnouncing(
    id: string,
    run: FinishingRun,
    fields: CompletedFields,
    announce: OutboxItem[],
    joined: JoinedWrites = {},
    manager: EntityManager = this.dataSource.manager,
  ): Promise<FinishedTask | undefined> {
    return this.finish(manager, 'completed', id, run, announce, joined, [
      `code = 0, error = NULL, outputs = $5, output_keys = $6, timings = $7`,
      [
        JSON.stringify(fields.outputs),
        JSON.stringify(fields.outputKeys),
        JSON.stringify(fields.timings),
      ],
    ]);
  }

  /** → failed, only for the run the caller names (FinishingRun; `null`: whatever the attempt). */
  async failAnnouncing(
    id: string,
    run: FinishingRun,
    fields: FailedFields,
    announce: OutboxItem[],
    joined: JoinedWrites = {},
    manager: EntityManager = this.dataSource.manager,
  ): Promise<FinishedTask | undefined> {
    return this.finish(manager, 'failed', id, run, announce, joined, [
      `code = $5, error = $6, outputs = '[]'::jsonb, timings = $7`,
      [fields.code, fields.error, fields.timings ? JSON.stringify(fields.timings) : null],
    ]);
  }

  /**
   * ONE statement: the conditional terminal update and, if it won, the outbox
   * rows and the joined writes of other domains (the settlement, the webhook
   * delivery), each given the condition "the update won". A run that never
   * claimed the task claims it here: only from `created` (attempt 0, so no
   * claim happened meanwhile), taking attempt 1 and its own start time.
   */
  private async finish(
    manager: EntityManager,
    to: 'completed' | 'failed',
    id: string,
    run: FinishingRun,
    announce: OutboxItem[],
    joined: JoinedWrites,
    [set, params]: [string, unknown[]],
  ): Promise<FinishedTask | undefined> {
    const unclaimed = typeof run === 'object' && run !== null;
    // $3 is the attempt that may finish, or the start of a run that claims here.
    const [claim, fence] = unclaimed
      ? [`attempt = 1, started_at = $3::timestamptz, `, `attempt = 0`]
      : ['', `($3::int IS NULL OR attempt = $3)`];
    const own = [
      id,
      // The lifecycle decides whether `created` may end here (decision 0122).
      unclaimed
        ? allowedSources(to).filter((from) => from === TaskStatus.Created)
        : allowedSources(to),
      unclaimed ? run.unclaimedSince : run,
      outboxParam(announce),
      ...params,
    ];
    const won = 'EXISTS (SELECT 1 FROM t)';
    const settlement = joined.settle?.(won);
    const delivery = joined.deliver?.(won);
    const fragments = [settlement, delivery].filter((f): f is SqlFragment => f !== undefined);
    const text = this.terminalStatements.text(
      [to, claim, set, ...fragments.map((f) => f.sql)],
      () => {
        // Each fragment's parameters follow the ones before it.
        let offset = own.length;
        const ctes = fragments.map((f) => {
          const sql = shiftParams(f.sql, offset);
          offset += f.params.length;
          return `,\n       ${sql}`;
        });
        return `WITH t AS (
         UPDATE tasks.tasks SET status = '${to}', finished_at = clock_timestamp(), ${claim}${set}
          WHERE id = $1 AND status = ANY($2) AND ${fence}
          RETURNING id, status, code, error, attempt, started_at, finished_at),
       ${outboxInsertCte('o', 't', 4)}${ctes.join('')}
       SELECT t.*, (SELECT coalesce(json_agg(o), '[]') FROM o) AS announced,
              ${settlement ? `EXISTS (SELECT 1 FROM ${settlement.yields})` : 'false'} AS settled
         FROM t`;
      },
    );
    const rows = await preparedQuery<
      (FinishedRowColumns & { announced: OutboxRow[]; settled: boolean })[]
    >(manager, text, [...own, ...fragments.flatMap((f) => f.params)]);
    const row = rows[0];
    return row
      ? {
          task: {
            id: row.id,
            status: row.status,
            code: row.code,
            error: row.error,
            attempt: row.attempt,
            startedAt: row.started_at,
            finishedAt: row.finished_at,
          },
          outbox: row.announced,
          settled: row.settled,
        }
      : undefined;
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

  /**
   * Tasks stuck beyond their own time limit plus `graceMs` (the stuck-task
   * sweeper): `processing` for that long since their last claim, or still
   * `created` that long after submit (their job was lost or gave up). Reads
   * the small partial index of open tasks.
   */
  async findStuck(graceMs: number, limit: number): Promise<StoredTask[]> {
    const rows: TaskRow[] = await this.dataSource.query(
      `SELECT * FROM tasks.tasks
        WHERE status IN ('created', 'processing')
          AND coalesce(started_at, created_at)
              + make_interval(secs => (time_limit_ms + $1::bigint) / 1000.0) < clock_timestamp()
        ORDER BY created_at LIMIT $2`,
      [graceMs, limit],
    );
    return rows.map(taskFromRow);
  }
}
