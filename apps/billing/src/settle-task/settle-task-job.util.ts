import { UnrecoverableError } from 'bullmq';
import type { SettleTaskJob } from '@genhub/queue';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a settle job's payload at the edge. A malformed payload can never
 * succeed, so it fails the job for good (UnrecoverableError) instead of
 * burning the retries meant for transient database failures.
 */
export function parseSettleTaskJob(data: unknown): SettleTaskJob {
  const job = (data ?? {}) as Partial<Record<keyof SettleTaskJob, unknown>>;
  if (typeof data !== 'object' || data === null)
    throw new UnrecoverableError('settle-task: payload is not an object');
  if (job.v !== 1)
    throw new UnrecoverableError(`settle-task: unsupported version ${String(job.v)}`);
  if (typeof job.taskId !== 'string' || !UUID.test(job.taskId))
    throw new UnrecoverableError('settle-task: taskId must be a UUID');
  if (typeof job.accountId !== 'string' || !UUID.test(job.accountId))
    throw new UnrecoverableError('settle-task: accountId must be a UUID');
  if (job.outcome !== 'capture' && job.outcome !== 'release')
    throw new UnrecoverableError('settle-task: outcome must be capture or release');
  const requestId = typeof job.requestId === 'string' ? job.requestId : undefined;
  return { v: 1, taskId: job.taskId, accountId: job.accountId, outcome: job.outcome, requestId };
}
