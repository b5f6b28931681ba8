import {
  AdapterError,
  AdapterOutput,
  AdapterResult,
  ModelAdapter,
  RunContext,
} from '../../contract/model-adapter.types';
import type { UpstreamSettings } from '../../config/providers-file.types';
import {
  Backoff,
  DEFAULT_BACKOFF,
  cancelOnFailure,
  jsonUpstream,
  JsonUpstream,
  nonEmpty,
  pollWithBackoff,
  sameOrigin,
  urlOutput,
} from '../http';
import { falError } from './fal-errors.util';
import { TaskCode } from '@genhub/errors';

type Input = Record<string, unknown>;
type Json = Record<string, unknown>;

/** fal's image_size names for our aspect ratios. */
const IMAGE_SIZES: Record<string, string> = {
  '1:1': 'square_hd',
  '16:9': 'landscape_16_9',
  '9:16': 'portrait_16_9',
  '4:3': 'landscape_4_3',
  '3:4': 'portrait_4_3',
};

/**
 * fal-style queue: submit `POST {base}/{model_id}`, poll `status_url`
 * (IN_QUEUE → IN_PROGRESS → COMPLETED) with backoff, read `response_url`,
 * `PUT cancel_url` when the run is aborted or fails after the submit.
 */
export class FalAdapter implements ModelAdapter<Input> {
  /** fal takes its key as `Authorization: Key <key>`. */
  private readonly request: JsonUpstream;

  constructor(
    private readonly upstream: UpstreamSettings,
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
  ) {
    this.request = jsonUpstream(upstream, 'Key', falError);
  }

  async run(ctx: RunContext<Input>): Promise<AdapterResult> {
    const submitted = await this.request(
      ctx,
      'POST',
      `${this.upstream.baseUrl}/${ctx.route.upstreamModel}`,
      falInput(ctx.input, ctx.route.kind),
    );
    const status = sameOrigin(submitted.status_url, this.upstream.baseUrl);
    const response = sameOrigin(submitted.response_url, this.upstream.baseUrl);
    const cancel = sameOrigin(submitted.cancel_url, this.upstream.baseUrl);
    ctx.progress?.(0);
    const result = await cancelOnFailure(
      async () => {
        await pollWithBackoff(
          async () => {
            const s = await this.request(ctx, 'GET', status);
            if (s.status === 'IN_PROGRESS') ctx.progress?.(0.5);
            return s.status === 'COMPLETED' ? s : undefined;
          },
          ctx.signal,
          this.backoff,
        );
        return this.request(ctx, 'GET', response);
      },
      (signal) => this.request({ ...ctx, signal }, 'PUT', cancel),
    );
    return { outputs: nonEmpty(outputsOf(result, ctx.route.kind)) };
  }
}

/** Our text-to-image fields in fal's names; other kinds pass through. */
function falInput(input: Input, kind: string | undefined): Json {
  if (kind !== 'text-to-image') return { ...input };
  const { num_outputs, aspect_ratio, resolution: _resolution, ...rest } = input;
  return {
    ...rest,
    ...(num_outputs !== undefined ? { num_images: num_outputs } : {}),
    ...(aspect_ratio !== undefined ? { image_size: IMAGE_SIZES[String(aspect_ratio)] } : {}),
  };
}

/** fal's File objects (`images[]`, `image`, `video`, `audio`, `audio_file`) or `text` (speech-to-text). */
function outputsOf(result: Json, kind: string | undefined): AdapterOutput[] {
  if (kind === 'speech-to-text') {
    if (typeof result.text !== 'string')
      throw new AdapterError(TaskCode.ServiceUnavailable, 'upstream answered no transcript');
    return [{ kind: 'text', text: result.text }];
  }
  const files = [
    ...(Array.isArray(result.images) ? result.images : []),
    result.image,
    result.video,
    result.audio,
    result.audio_file,
  ].filter(
    (f): f is { url: string } => typeof (f as { url?: unknown } | undefined)?.url === 'string',
  );
  return files.map((f) => urlOutput(f.url));
}
