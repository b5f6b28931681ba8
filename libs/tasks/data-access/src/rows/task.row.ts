import type { TaskStatus } from '../task-status';

/** Per-stage durations in milliseconds (docs/interface.md, "Task result"). */
export interface TaskTimings {
  queue_wait: number;
  worker_init: number;
  api_call: number;
  save: number;
  run_overhead: number;
  total: number;
}

/** The events a Replicate-compatible webhook may ask for (`webhook_events_filter`). */
export const REPLICATE_WEBHOOK_EVENTS = ['start', 'output', 'logs', 'completed'] as const;
export type ReplicateWebhookEvent = (typeof REPLICATE_WEBHOOK_EVENTS)[number];

/**
 * How a task's webhook is written (decision 0137); a task without one gets
 * genhub's own payload. `base_url` is the API root its links are under.
 */
export interface WebhookFormat {
  kind: 'replicate';
  base_url: string;
  events: ReplicateWebhookEvent[];
}

/** A row of `tasks.tasks` (the migration is the schema; this is its shape in code). */
export class StoredTask {
  id!: string;
  accountId!: string;
  model!: string;
  channel!: string;
  category!: string;
  status!: TaskStatus;
  input!: Record<string, unknown>;
  webhookUrl!: string | null;
  /** Null: genhub's own webhook payload. */
  webhookFormat!: WebhookFormat | null;
  outputPrefix!: string | null;
  priceUnits!: number;
  code!: number | null;
  error!: string | null;
  /** Output URLs, or the text of speech-to-text models. */
  outputs!: string[] | null;
  /** Storage keys of the outputs (deleted with the task). */
  outputKeys!: string[] | null;
  timings!: TaskTimings | null;
  attempt!: number;
  timeLimitMs!: number;
  createdAt!: Date;
  startedAt!: Date | null;
  finishedAt!: Date | null;
  deletedAt!: Date | null;
  idempotencyKey!: string | null;
  requestHash!: string | null;
}
