import { DeliverWebhookJob, JobName, jobIdFor } from '@genhub/queue';

/**
 * A delivery attempt job. The tasks domain enqueues the first one (a plain
 * DeliverWebhookJob, job id `webhook-<taskId>`); the dispatcher enqueues each
 * retry itself, carrying the attempt number and the body serialized on the
 * first attempt so every attempt sends identical bytes.
 */
export interface DeliverWebhookAttemptJob extends DeliverWebhookJob {
  /** 1-based; absent on the first job. */
  attempt?: number;
  /** The JSON body as sent on attempt 1. */
  body?: string;
  /** The first attempt of this round: absent (1) unless `webhooks:replay` reopened the delivery. */
  firstAttempt?: number;
}

/**
 * The first job of a replayed round (attempt n = attempts so far + 1). Its own
 * id, so an old job still kept by BullMQ under `webhook-<task>` (completed or
 * failed) does not turn the replay into a no-op; later attempts of the round
 * use attemptJobId, whose numbers were never used for this task.
 */
export function replayJobId(taskId: string, firstAttempt: number): string {
  return `${jobIdFor(JobName.DeliverWebhook, taskId)}-replay-${firstAttempt}`;
}

/** Deterministic id of attempt n: a re-run job re-enqueues the same retry, never a second one. */
export function attemptJobId(taskId: string, attempt: number): string {
  const base = jobIdFor(JobName.DeliverWebhook, taskId);
  return attempt <= 1 ? base : `${base}-${attempt}`;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a job payload at the edge; undefined when it is not a delivery job this code understands. */
export function parseDeliverWebhookJob(data: unknown): DeliverWebhookAttemptJob | undefined {
  if (!isObject(data) || data['v'] !== 1) return undefined;
  const { taskId, accountId, url, payload, attempt, body, firstAttempt } = data;
  if (typeof taskId !== 'string' || typeof accountId !== 'string' || typeof url !== 'string')
    return undefined;
  if (!isObject(payload) || payload['id'] !== taskId) return undefined;
  if (attempt !== undefined && (!Number.isInteger(attempt) || (attempt as number) < 1))
    return undefined;
  if (body !== undefined && typeof body !== 'string') return undefined;
  if (
    firstAttempt !== undefined &&
    (!Number.isInteger(firstAttempt) ||
      (firstAttempt as number) < 1 ||
      ((attempt as number | undefined) ?? 1) < (firstAttempt as number))
  )
    return undefined;
  return data as unknown as DeliverWebhookAttemptJob;
}
