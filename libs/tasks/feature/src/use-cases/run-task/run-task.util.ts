import type { RunTaskSnapshot } from '@genhub/queue';
import { TaskEntity, TaskTimings } from '@genhub/tasks-data-access';

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

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/flac': 'flac',
};

export function extensionFor(contentType: string, url: string): string {
  const known = EXTENSIONS[contentType.split(';')[0].trim().toLowerCase()];
  if (known) return known;
  const fromUrl = /\.([A-Za-z0-9]{1,5})(?:$|\?)/.exec(new URL(url).pathname)?.[1];
  return fromUrl ?? 'bin';
}
