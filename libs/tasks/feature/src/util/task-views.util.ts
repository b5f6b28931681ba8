import type { WebhookPayload } from '@genhub/queue';
import type { TaskEntity, TaskTimings } from '@genhub/tasks-data-access';

/** ISO 8601 without zone suffix, in UTC, milliseconds kept: `2026-11-21T12:00:00.123`. */
export function formatCreatedAt(date: Date): string {
  return date.toISOString().slice(0, 23);
}

export interface ProcessingView {
  id: string;
  status: 'processing';
}
export interface CompletedView {
  id: string;
  model: string;
  status: 'completed';
  code: number;
  outputs: string[];
  timings: TaskTimings;
  error: null;
  created_at: string;
}
export interface FailedView {
  id: string;
  model: string;
  status: 'failed';
  code: number;
  outputs: string[];
  error: string;
  created_at: string;
}
export type TaskResultView = ProcessingView | CompletedView | FailedView;

const TIMING_KEYS = [
  'queue_wait',
  'worker_init',
  'api_call',
  'save',
  'run_overhead',
  'total',
] as const;

/** The result object, exactly as interface.md shapes it (no other keys). */
export function toResultView(task: TaskEntity): TaskResultView {
  if (task.status === 'completed') {
    const t = task.timings;
    return {
      id: task.id,
      model: task.model,
      status: 'completed',
      code: task.code ?? 0,
      outputs: task.outputs ?? [],
      timings: Object.fromEntries(
        TIMING_KEYS.map((k) => [k, t?.[k] ?? 0]),
      ) as unknown as TaskTimings,
      error: null,
      created_at: formatCreatedAt(task.createdAt),
    };
  }
  if (task.status === 'failed') {
    return {
      id: task.id,
      model: task.model,
      status: 'failed',
      code: task.code ?? 5000,
      outputs: [],
      error: task.error ?? '',
      created_at: formatCreatedAt(task.createdAt),
    };
  }
  return { id: task.id, status: 'processing' };
}

/** The webhook body snapshot: exactly the interface's keys. */
export function toWebhookPayload(task: TaskEntity): WebhookPayload {
  const completed = task.status === 'completed';
  return {
    id: task.id,
    model: task.model,
    status: completed ? 'completed' : 'failed',
    code: task.code ?? (completed ? 0 : 5000),
    created_at: formatCreatedAt(task.createdAt),
    input: task.input,
    outputs: completed ? (task.outputs ?? []) : [],
    error: completed ? null : (task.error ?? ''),
  };
}
