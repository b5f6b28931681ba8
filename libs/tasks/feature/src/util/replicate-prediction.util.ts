import type { StoredTask, TaskStatus, WebhookFormat } from '@genhub/tasks-data-access';

/** A prediction's status in Replicate's words. */
export type ReplicateStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

/** The prediction object of Replicate's HTTP API, as its official client reads it. */
export interface ReplicatePrediction {
  id: string;
  model: string;
  version: string;
  status: ReplicateStatus;
  input: Record<string, unknown>;
  output: string[] | null;
  error: string | null;
  logs: string;
  metrics: { predict_time?: number; total_time?: number };
  urls: { get: string; cancel: string };
  source: 'api';
  data_removed: boolean;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/**
 * The separator of a version id's three parts. Not a character a slug segment
 * may hold, so a version id names exactly one slug; and not `/` or `:`, so the
 * client's `owner/name:version` parser and a URL path segment both take it whole.
 */
const VERSION_SEPARATOR = '~';

/** The version id of a slug: `local/video/text-to-video` → `local~video~text-to-video`. */
export function replicateVersionOf(slug: string): string {
  return slug.split('/').join(VERSION_SEPARATOR);
}

/** The slug a version id names, or undefined when it is not one of ours. */
export function slugOfReplicateVersion(version: string): string | undefined {
  const parts = version.split(VERSION_SEPARATOR);
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9._-]+$/.test(part))) return undefined;
  return parts.join('/');
}

/** `owner/name` of a slug: its provider and model. */
export function replicateModelOf(slug: string): string {
  return slug.split('/').slice(0, 2).join('/');
}

const STATUS: Record<TaskStatus, ReplicateStatus> = {
  created: 'starting',
  processing: 'processing',
  completed: 'succeeded',
  failed: 'failed',
  deleted: 'canceled',
};

const seconds = (ms: number | undefined): number | undefined =>
  ms === undefined ? undefined : ms / 1000;

/**
 * A task as a Replicate prediction (decision 0137). `baseUrl` is the API root
 * its links are under (`…/replicate/v1`); `status` overrides the row's (a
 * cancel answers `canceled` for the row it deleted). A terminal row not yet
 * written (the finisher's) takes now as its completion time.
 */
export function replicatePredictionOf(
  task: Pick<
    StoredTask,
    | 'id'
    | 'model'
    | 'status'
    | 'input'
    | 'outputs'
    | 'error'
    | 'timings'
    | 'createdAt'
    | 'startedAt'
    | 'finishedAt'
  >,
  baseUrl: string,
  status: ReplicateStatus = STATUS[task.status],
): ReplicatePrediction {
  const terminal = status === 'succeeded' || status === 'failed' || status === 'canceled';
  const completedAt = terminal ? (task.finishedAt ?? new Date()) : null;
  const succeeded = status === 'succeeded';
  return {
    id: task.id,
    model: replicateModelOf(task.model),
    version: replicateVersionOf(task.model),
    status,
    input: task.input,
    output: succeeded ? (task.outputs ?? []) : null,
    error: status === 'failed' ? (task.error ?? '') : null,
    // genhub's models write no logs.
    logs: '',
    metrics: succeeded
      ? {
          predict_time: seconds(task.timings?.api_call) ?? 0,
          total_time: seconds(task.timings?.total) ?? 0,
        }
      : {},
    urls: {
      get: `${baseUrl}/predictions/${task.id}`,
      cancel: `${baseUrl}/predictions/${task.id}/cancel`,
    },
    source: 'api',
    data_removed: false,
    created_at: task.createdAt.toISOString(),
    started_at:
      task.startedAt?.toISOString() ?? (terminal ? completedAt?.toISOString() : null) ?? null,
    completed_at: completedAt?.toISOString() ?? null,
  };
}

/**
 * Whether a Replicate webhook asked for the event a task's end is: `completed`
 * always is one; `output` too when the prediction succeeded (its output
 * arrives at the end). `start` is its own delivery, at the first claim;
 * `logs` is never sent: genhub's models write none (decision 0137).
 */
export function replicateWantsEnding(format: WebhookFormat, status: TaskStatus): boolean {
  return (
    format.events.includes('completed') ||
    (format.events.includes('output') && status === 'completed')
  );
}

/** Whether a task's webhook asked for its `start` event (only a Replicate format can). */
export function wantsStartWebhook(format: WebhookFormat | null): format is WebhookFormat {
  return format?.kind === 'replicate' && format.events.includes('start');
}
