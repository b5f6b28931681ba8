import { AdapterError, MediaInput, RunContext } from '../../contract/model-adapter.types';
import { TaskCode } from '@genhub/errors';

/** A RunContext for adapter specs: media served from `media` by URL (else 1402), progress recorded. */
export function runContext<I>(
  input: I,
  options: { signal?: AbortSignal; media?: Record<string, MediaInput> } = {},
): RunContext<I> & { fetched: string[]; reported: number[] } {
  const fetched: string[] = [];
  const reported: number[] = [];
  return {
    taskId: 't1',
    input,
    route: { adapter: 'test', upstreamModel: 'test', priceUnits: 0 },
    signal: options.signal ?? new AbortController().signal,
    fetchMedia: async (url) => {
      fetched.push(url);
      const media = options.media?.[url];
      if (!media) throw new AdapterError(TaskCode.MediaAccessFailed);
      return media;
    },
    progress: (fraction) => reported.push(fraction),
    fetched,
    reported,
  };
}

/** The bytes of an adapter's only output, failing the spec when it is not bytes. */
export function onlyBytes(result: { outputs: { kind: string }[] }): {
  data: Buffer;
  contentType: string;
  extension: string;
} {
  if (result.outputs.length !== 1)
    throw new Error(`expected one output, got ${result.outputs.length}`);
  const [output] = result.outputs as {
    kind: string;
    data: Buffer;
    contentType: string;
    extension: string;
  }[];
  if (output.kind !== 'bytes') throw new Error(`expected bytes, got ${output.kind}`);
  return output;
}
