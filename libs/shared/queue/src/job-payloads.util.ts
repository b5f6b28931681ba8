import { UnrecoverableError } from 'bullmq';
import { isUUID } from 'class-validator';
import { JobItem, JobName } from './queue.constants';

/** The versions each job accepts (run-task: 2 only from queues filled before the upgrade). */
const VERSIONS: Record<JobName, readonly number[]> = {
  'run-task': [1, 2],
  'settle-task': [1],
  'deliver-webhook': [2],
};

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
  if (!VERSIONS[name as JobName].includes(data.v as number))
    return fail(`unsupported version ${String(data.v)}`);
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
      optional('accountId', (v) => typeof v === 'string' && isUUID(v), 'must be a UUID');
      // A version-2 job (filled before the upgrade) runs as the one shape there is now; the
      // account (a job the fair stage handed over) tells the stage when its run ends.
      return {
        name,
        data: {
          v: 1,
          taskId: data.taskId,
          requestId: data.requestId,
          ...(data.accountId ? { accountId: data.accountId } : {}),
        },
      } as unknown as Extract<JobItem, { name: N }>;
    case JobName.SettleTask:
      uuid('accountId');
      if (data.outcome !== 'capture' && data.outcome !== 'release')
        fail('outcome must be capture or release');
      break;
    case JobName.DeliverWebhook: {
      uuid('accountId');
      optional('event', (v) => v === 'start', 'must be start');
      optional('attempt', positiveInt, 'must be an integer ≥ 1');
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
