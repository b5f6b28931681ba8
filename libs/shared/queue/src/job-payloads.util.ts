import { UnrecoverableError } from 'bullmq';
import { isUUID } from 'class-validator';
import { JobItem, JobName } from './queue.constants';

/**
 * The one check of a job payload at a processor's edge (every processor calls
 * it). A job that can never succeed — a name this processor does not handle,
 * a version it does not know, a malformed field — fails for good
 * (UnrecoverableError) instead of burning retries meant for outages.
 */
export function parseJob<N extends JobName>(
  job: { name: string; data: unknown },
  handled: readonly N[],
): Extract<JobItem, { name: N }> {
  if (!(handled as readonly string[]).includes(job.name))
    throw new UnrecoverableError(
      `unknown job ${job.name} (this processor handles ${handled.join(', ')})`,
    );
  const name = job.name as N;
  const data = job.data as Record<string, unknown> | null;
  const fail = (why: string): never => {
    throw new UnrecoverableError(`${name}: ${why}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return fail('payload is not an object');
  // Version 2 of deliver-webhook is ids only; of run-task, ids and the task's fixed fields.
  const versions = name === JobName.SettleTask ? [1] : [1, 2];
  if (!versions.includes(data.v as number)) return fail(`unsupported version ${String(data.v)}`);
  const uuid = (field: string) => {
    if (typeof data[field] !== 'string' || !isUUID(data[field])) fail(`${field} must be a UUID`);
  };
  const optional = (field: string, ok: (value: unknown) => boolean, why: string) => {
    if (data[field] !== undefined && !ok(data[field])) fail(`${field} ${why}`);
  };
  const positiveInt = (v: unknown) => Number.isInteger(v) && (v as number) >= 1;

  uuid('taskId');
  optional('requestId', (v) => typeof v === 'string', 'must be a string');
  switch (name as JobName) {
    case JobName.RunTask:
      if (data.v === 2) checkRunTaskSnapshot(data.task, fail);
      else if (data.task !== undefined) fail('task is for version 2 only');
      break;
    case JobName.SettleTask:
      uuid('accountId');
      if (data.outcome !== 'capture' && data.outcome !== 'release')
        fail('outcome must be capture or release');
      break;
    case JobName.DeliverWebhook: {
      uuid('accountId');
      if (data.v === 1) {
        if (typeof data.url !== 'string') fail('url must be a string');
        const payload = data.payload as { id?: unknown } | null;
        if (typeof payload !== 'object' || payload === null || payload.id !== data.taskId)
          fail('payload must be the webhook body of the task');
      }
      optional('attempt', positiveInt, 'must be an integer ≥ 1');
      optional('body', (v) => typeof v === 'string', 'must be a string');
      optional(
        'firstAttempt',
        (v) => positiveInt(v) && ((data.attempt as number | undefined) ?? 1) >= (v as number),
        'must be an integer from 1 to attempt',
      );
      break;
    }
  }
  return { name, data } as unknown as Extract<JobItem, { name: N }>;
}

/** A version-2 run job's `task`: every field present and of its type. */
function checkRunTaskSnapshot(task: unknown, fail: (why: string) => never): void {
  if (typeof task !== 'object' || task === null || Array.isArray(task))
    return fail('task must be an object');
  const t = task as Record<string, unknown>;
  const text = (field: string) => typeof t[field] === 'string' && (t[field] as string) !== '';
  const textOrNull = (field: string) => t[field] === null || text(field);
  if (typeof t.accountId !== 'string' || !isUUID(t.accountId))
    fail('task.accountId must be a UUID');
  for (const field of ['model', 'channel', 'category'])
    if (!text(field)) fail(`task.${field} must be a non-empty string`);
  if (typeof t.input !== 'object' || t.input === null || Array.isArray(t.input))
    fail('task.input must be an object');
  for (const field of ['webhookUrl', 'outputPrefix'])
    if (!textOrNull(field)) fail(`task.${field} must be a string or null`);
  if (!Number.isSafeInteger(t.priceUnits) || (t.priceUnits as number) < 0)
    fail('task.priceUnits must be an integer ≥ 0');
  if (!Number.isSafeInteger(t.timeLimitMs) || (t.timeLimitMs as number) < 1)
    fail('task.timeLimitMs must be an integer ≥ 1');
  if (!text('createdAt') || Number.isNaN(Date.parse(t.createdAt as string)))
    fail('task.createdAt must be a date');
}
