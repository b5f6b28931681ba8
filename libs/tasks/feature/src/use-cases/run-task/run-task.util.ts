import type { RunTaskSnapshot } from '@genhub/queue';
import { StoredTask as TaskEntity, TaskTimings } from '@genhub/tasks-data-access';

// The run's pure parts: the task from its job, the timings, output file extensions.

/** The task as a version-2 run job carries it: `created`, not yet claimed. */
export function taskFromSnapshot(id: string, snapshot: RunTaskSnapshot): TaskEntity {
  return Object.assign(new TaskEntity(), {
    id,
    accountId: snapshot.accountId,
    model: snapshot.model,
    channel: snapshot.channel,
    category: snapshot.category,
    status: 'created',
    input: snapshot.input,
    webhookUrl: snapshot.webhookUrl,
    outputPrefix: snapshot.outputPrefix,
    priceUnits: snapshot.priceUnits,
    code: null,
    error: null,
    outputs: null,
    outputKeys: null,
    timings: null,
    attempt: 0,
    timeLimitMs: snapshot.timeLimitMs,
    createdAt: new Date(snapshot.createdAt),
    startedAt: null,
    finishedAt: null,
    deletedAt: null,
    idempotencyKey: null,
    requestHash: null,
  } satisfies TaskEntity);
}

export function measure(
  createdAt: number,
  startedAt: number,
  claimedAt: number,
  apiStart: number,
  apiEnd: number,
  saveEnd: number,
  finishedAt: number,
): TaskTimings {
  const ms = (n: number) => Math.max(0, Math.round(n));
  const queue_wait = ms(startedAt - createdAt);
  const worker_init = ms(apiStart - claimedAt);
  const api_call = ms(apiEnd - apiStart);
  const save = ms(saveEnd - apiEnd);
  const total = ms(finishedAt - createdAt);
  const run_overhead = ms(total - queue_wait - worker_init - api_call - save);
  return { queue_wait, worker_init, api_call, save, run_overhead, total };
}

/**
 * The extension an output names for itself: the adapter's, or its URL's last
 * one. Only a plain-text output keeps it (`json`, `srt`…); every other stored
 * file is named after the type recognised from its bytes.
 */
export function outputNameExtension(
  output: { kind: 'bytes'; extension: string } | { kind: 'url'; url: string },
): string | undefined {
  if (output.kind === 'bytes') return output.extension;
  return /\.([A-Za-z0-9]{1,5})$/.exec(new URL(output.url).pathname)?.[1];
}
