import type { TaskTimings, WebhookFormat } from '../rows/task.row';

// What the tasks domain's write steps take (statements/task.statements.ts).

export interface NewTask {
  id: string;
  accountId: string;
  model: string;
  channel: string;
  category: string;
  input: Record<string, unknown>;
  webhookUrl: string | null;
  /** Absent or null: genhub's own webhook payload. */
  webhookFormat?: WebhookFormat | null;
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
