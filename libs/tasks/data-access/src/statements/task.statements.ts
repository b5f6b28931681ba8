import { sql, type Expression, type QueryCreator, type SqlBool } from 'kysely';
import { jsonParam, statementsOf } from '@genhub/database';
import type { DB as TasksTables } from '../generated/schema.types';
import type { OutboxItem } from '../repositories/outbox.repository';
import type { TerminalStatus, TaskStatus } from '../task-status';
import type { CompletedFields, FailedFields, NewTask } from '../repositories/task-writes.types';

export type { TasksTables };

/** A statement on the tasks tables alone (the steps below, run on their own). */
export const tasksStatements: QueryCreator<TasksTables> = statementsOf<TasksTables>();

/** What each step yields to the statement around it (its CTE). */
export interface TaskCreatedStep {
  task_created: { created_at: Date };
}
export interface TaskFinishedStep {
  task_finished: {
    id: string;
    status: string;
    code: number | null;
    error: string | null;
    attempt: number;
    started_at: Date | null;
    finished_at: Date | null;
  };
}
export interface OutboxRowStep {
  outbox_row: { id: number };
}

/**
 * The tasks domain's writes as steps (data-modifying CTEs) of a statement,
 * typed on the tasks tables. The task engine composes them with the
 * ledger's and the webhooks' steps into the one statement that creates or
 * ends a task (decision 0132); which statuses a write may start from is the
 * engine's lifecycle rule, passed in.
 */

/** Writes the task (`created`) only when `when` holds; `task_created` returns its `created_at`. */
export function withTaskCreated(
  statement: QueryCreator<TasksTables>,
  task: NewTask,
  when: Expression<SqlBool>,
): QueryCreator<TasksTables & TaskCreatedStep> {
  return statement.with('task_created', (db) =>
    db
      .insertInto('tasks.tasks')
      .columns([
        'id',
        'account_id',
        'model',
        'channel',
        'category',
        'input',
        'webhook_url',
        'output_prefix',
        'price_units',
        'time_limit_ms',
        'idempotency_key',
        'request_hash',
        'webhook_format',
      ])
      .expression(
        db
          .selectNoFrom((eb) => [
            eb.cast<string>(eb.val(task.id), 'uuid').as('id'),
            eb.cast<string>(eb.val(task.accountId), 'uuid').as('account_id'),
            eb.cast<string>(eb.val(task.model), 'text').as('model'),
            eb.cast<string>(eb.val(task.channel), 'text').as('channel'),
            eb.cast<string>(eb.val(task.category), 'text').as('category'),
            eb.cast<string>(eb.val(jsonParam(task.input)), 'jsonb').as('input'),
            eb.cast<string | null>(eb.val(task.webhookUrl), 'text').as('webhook_url'),
            eb.cast<string | null>(eb.val(task.outputPrefix), 'text').as('output_prefix'),
            eb.cast<number>(eb.val(task.priceUnits), 'int8').as('price_units'),
            eb.cast<number>(eb.val(task.timeLimitMs), 'int4').as('time_limit_ms'),
            eb
              .cast<string | null>(eb.val(task.idempotencyKey ?? null), 'text')
              .as('idempotency_key'),
            eb.cast<string | null>(eb.val(task.requestHash ?? null), 'text').as('request_hash'),
            eb
              .cast<string | null>(
                eb.val(task.webhookFormat ? jsonParam(task.webhookFormat) : null),
                'jsonb',
              )
              .as('webhook_format'),
          ])
          .where(when),
      )
      .returning('created_at'),
  );
}

/** What a terminal write sets: completed with its outputs, or failed with its code. */
export type TerminalFields =
  { status: 'completed'; fields: CompletedFields } | { status: 'failed'; fields: FailedFields };

/**
 * → completed or failed, only from `from` and only at `attempt` (null:
 * whichever; the stuck-task sweeper): `task_finished` returns what only the
 * row knew, and has no row when another writer won.
 */
export function withTaskFinished(
  statement: QueryCreator<TasksTables>,
  input: { id: string; from: readonly TaskStatus[]; attempt: number | null } & TerminalFields,
): QueryCreator<TasksTables & TaskFinishedStep> {
  const set =
    input.status === 'completed'
      ? {
          code: 0,
          error: null,
          outputs: jsonParam(input.fields.outputs),
          output_keys: jsonParam(input.fields.outputKeys),
          timings: jsonParam(input.fields.timings),
        }
      : {
          code: input.fields.code,
          error: input.fields.error,
          outputs: '[]',
          timings: jsonParam(input.fields.timings),
        };
  return statement.with('task_finished', (db) =>
    db
      .updateTable('tasks.tasks')
      .set({
        status: input.status satisfies TerminalStatus,
        finished_at: sql`clock_timestamp()`,
        ...set,
      })
      .where('id', '=', input.id)
      .where('status', 'in', input.from)
      .where((eb) => (input.attempt === null ? eb.lit(true) : eb('attempt', '=', input.attempt)))
      .returning(['id', 'status', 'code', 'error', 'attempt', 'started_at', 'finished_at']),
  );
}

/** Writes one outbox row only when `when` holds (the change it announces was written); returns its id. */
export function withOutboxRow(
  statement: QueryCreator<TasksTables>,
  item: OutboxItem,
  when: Expression<SqlBool>,
): QueryCreator<TasksTables & OutboxRowStep> {
  return statement.with('outbox_row', (db) =>
    db
      .insertInto('tasks.outbox')
      .columns(['job_name', 'job_id', 'payload'])
      .expression(
        db
          .selectNoFrom((eb) => [
            eb.cast<string>(eb.val(item.jobName), 'text').as('job_name'),
            eb.cast<string>(eb.val(item.jobId), 'text').as('job_id'),
            eb.cast<string>(eb.val(jsonParam(item.payload)), 'jsonb').as('payload'),
          ])
          .where(when),
      )
      .returning('id'),
  );
}
