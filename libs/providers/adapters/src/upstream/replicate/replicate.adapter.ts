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
import { replicateFailure, replicateHttpError } from './replicate-errors.util';
import { TaskCode } from '@genhub/errors';

type Input = Record<string, unknown>;
type Prediction = Record<string, unknown> & {
  status?: string;
  urls?: { get?: string; cancel?: string };
};

const PENDING = new Set(['starting', 'processing']);

/**
 * Replicate-style predictions: create (`/v1/models/{owner}/{name}/predictions`,
 * or `/v1/predictions` with a `version` when the upstream model is
 * `owner/name:version`), poll `urls.get` with backoff, `urls.cancel` when the
 * run is aborted or fails after creation. Output URLs are left to the worker.
 */
export class ReplicateAdapter implements ModelAdapter<Input> {
  /** Replicate takes its key as `Authorization: Bearer <key>`. */
  private readonly call: JsonUpstream;

  constructor(
    private readonly upstream: UpstreamSettings,
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
  ) {
    this.call = jsonUpstream(upstream, 'Bearer', replicateHttpError);
  }

  async run(ctx: RunContext<Input>): Promise<AdapterResult> {
    const created = await this.create(ctx);
    const get = sameOrigin(created.urls?.get, this.upstream.baseUrl);
    const cancel = sameOrigin(created.urls?.cancel, this.upstream.baseUrl);
    ctx.progress?.(0);
    const final = await cancelOnFailure(
      () =>
        PENDING.has(created.status ?? '')
          ? pollWithBackoff(() => this.poll(ctx, get), ctx.signal, this.backoff)
          : Promise.resolve(created),
      (signal) => this.request({ ...ctx, signal }, 'POST', cancel),
    );
    if (final.status === 'failed') throw replicateFailure(final.error);
    if (final.status === 'canceled')
      throw new AdapterError(TaskCode.ServiceUnavailable, 'the upstream canceled the prediction');
    if (final.status !== 'succeeded')
      throw new AdapterError(
        TaskCode.ServiceUnavailable,
        `unexpected prediction status ${String(final.status)}`,
      );
    return { outputs: nonEmpty(outputsOf(final.output, ctx.route.kind)) };
  }

  private async create(ctx: RunContext<Input>): Promise<Prediction> {
    const [model, version] = ctx.route.upstreamModel.split(':');
    const path = version ? '/v1/predictions' : `/v1/models/${model}/predictions`;
    const body = { ...(version ? { version } : {}), input: ctx.input };
    return this.request(ctx, 'POST', `${this.upstream.baseUrl}${path}`, body);
  }

  private async poll(ctx: RunContext<Input>, url: string): Promise<Prediction | undefined> {
    const prediction = await this.request(ctx, 'GET', url);
    return PENDING.has(prediction.status ?? '') ? undefined : prediction;
  }

  private async request(
    ctx: Pick<RunContext, 'signal'>,
    method: 'GET' | 'POST',
    url: string,
    body?: object,
  ): Promise<Prediction> {
    return (await this.call(ctx, method, url, body)) as Prediction;
  }
}

/** A prediction's `output`: a URL, a list of URLs, or (speech-to-text) text. */
function outputsOf(output: unknown, kind: string | undefined): AdapterOutput[] {
  if (kind === 'speech-to-text') {
    const text =
      typeof output === 'string'
        ? output
        : ((output as { transcription?: unknown; text?: unknown } | null)?.transcription ??
          (output as { text?: unknown } | null)?.text);
    if (typeof text !== 'string')
      throw new AdapterError(TaskCode.ServiceUnavailable, 'upstream answered no transcript');
    return [{ kind: 'text', text }];
  }
  const urls = Array.isArray(output)
    ? output
    : output === null || output === undefined
      ? []
      : [output];
  return urls.map((u) => urlOutput(String(u)));
}
