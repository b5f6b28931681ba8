import { TaskTimings } from '@genhub/tasks-data-access';

// The run's pure parts: the timings, output file extensions.

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
