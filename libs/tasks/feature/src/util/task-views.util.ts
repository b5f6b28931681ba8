import type { TaskResultBody, TimingsDto, WebhookPayloadDto } from '@genhub/contracts/server';
import type { StoredTask, TaskResultFields } from '@genhub/tasks-data-access';
import { TaskCode } from '@genhub/errors';
import {
  replicatePredictionOf,
  replicateWantsEnding,
  wantsStartWebhook,
} from './replicate-prediction.util';

/** ISO 8601 without zone suffix, in UTC, milliseconds kept: `2026-11-21T12:00:00.123`. */
export function formatCreatedAt(date: Date): string {
  return date.toISOString().slice(0, 23);
}

const TIMING_KEYS = [
  'queue_wait',
  'worker_init',
  'api_call',
  'save',
  'run_overhead',
  'total',
] as const satisfies readonly (keyof TimingsDto)[];

/** The result object with exactly its documented keys (docs/interface.md, "Task result"). */
export function toResultView(task: TaskResultFields): TaskResultBody {
  if (task.status === 'completed') {
    const t = task.timings;
    return {
      id: task.id,
      model: task.model,
      status: 'completed',
      // A completed row always has code 0 (the repository writes it with the status).
      code: 0,
      outputs: task.outputs ?? [],
      timings: Object.fromEntries(
        TIMING_KEYS.map((k) => [k, t?.[k] ?? 0]),
      ) as unknown as TimingsDto,
      error: null,
      created_at: formatCreatedAt(task.createdAt),
    };
  }
  if (task.status === 'failed') {
    return {
      id: task.id,
      model: task.model,
      status: 'failed',
      code: task.code ?? TaskCode.InternalError,
      outputs: [],
      error: task.error ?? '',
      created_at: formatCreatedAt(task.createdAt),
    };
  }
  return { id: task.id, status: 'processing' };
}

/** The webhook body snapshot: exactly its keys (docs/interface.md, "Webhook payload"). */
export function toWebhookPayload(task: StoredTask): WebhookPayloadDto {
  const completed = task.status === 'completed';
  return {
    id: task.id,
    model: task.model,
    status: completed ? 'completed' : 'failed',
    code: task.code ?? (completed ? TaskCode.Success : TaskCode.InternalError),
    created_at: formatCreatedAt(task.createdAt),
    input: task.input,
    outputs: completed ? (task.outputs ?? []) : [],
    error: completed ? null : (task.error ?? ''),
  };
}

/**
 * The webhook body of a terminal task as its format writes it: genhub's
 * payload, or a Replicate prediction (decision 0137); undefined when the
 * format sends nothing for this ending (then no delivery is opened).
 */
export function webhookBodyOf(task: StoredTask): string | undefined {
  const format = task.webhookFormat;
  if (!format) return JSON.stringify(toWebhookPayload(task));
  if (!replicateWantsEnding(format, task.status)) return undefined;
  return JSON.stringify(replicatePredictionOf(task, format.base_url));
}

/**
 * The `start` webhook body of a task its run has just claimed: the Replicate
 * prediction as it is then (`processing`, `started_at` set, no output);
 * undefined when the task's webhook did not ask for `start` (decision 0137).
 */
export function startWebhookBodyOf(task: StoredTask): string | undefined {
  const format = task.webhookFormat;
  if (!task.webhookUrl || !wantsStartWebhook(format)) return undefined;
  return JSON.stringify(replicatePredictionOf(task, format.base_url));
}
