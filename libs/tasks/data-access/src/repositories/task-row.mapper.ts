import { isUUID } from 'class-validator';
import type { Selectable } from 'kysely';
import type { TasksTasks } from '../generated/schema.types';
import { StoredTask, type TaskTimings, type WebhookFormat } from '../rows/task.row';
import type { TaskStatus } from '../task-status';

/**
 * A `tasks.tasks` row as PostgreSQL returns it: the migrated table's types
 * (generated), with the jsonb and status columns given their shapes.
 */
export type TaskRow = Omit<
  Selectable<TasksTasks>,
  'status' | 'input' | 'outputs' | 'output_keys' | 'timings' | 'webhook_format'
> & {
  webhook_format: WebhookFormat | null;
  status: TaskStatus;
  input: Record<string, unknown>;
  outputs: string[] | null;
  output_keys: string[] | null;
  timings: TaskTimings | null;
};

/**
 * Every column of TaskRow, for results of prepared statements (their result
 * columns must not change when a migration adds one).
 */
export const TASK_COLUMNS = `id, account_id, model, channel, category, status, input, webhook_url,
  output_prefix, price_units, code, error, outputs, output_keys, timings, attempt, time_limit_ms,
  created_at, started_at, finished_at, deleted_at, idempotency_key, request_hash, webhook_format`;

export function taskFromRow(r: TaskRow): StoredTask {
  return Object.assign(new StoredTask(), {
    id: r.id,
    accountId: r.account_id,
    model: r.model,
    channel: r.channel,
    category: r.category,
    status: r.status,
    input: r.input,
    webhookUrl: r.webhook_url,
    webhookFormat: r.webhook_format ?? null,
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

/** What the result endpoint shows of a task (no input: it can be large and is not shown). */
export type TaskResultFields = Pick<
  StoredTask,
  'id' | 'accountId' | 'model' | 'status' | 'code' | 'error' | 'outputs' | 'timings' | 'createdAt'
>;

/** A task id as a client may send it: anything that is not a UUID simply does not exist. */
export function isTaskId(value: string): boolean {
  return isUUID(value);
}
