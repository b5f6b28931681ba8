import {
  AdapterError,
  AdapterOutput,
  AdapterResult,
  ModelAdapter,
  RunContext,
} from '../../contract/model-adapter.types';
import type { UpstreamSettings } from '../../config/providers-file.types';
import { UpstreamCall, bytesOutput, callUpstream, nonEmpty, objectOf, urlOutput } from '../http';
import { openAiError } from './openai-errors.util';
import { openAiImageSize } from './openai-image-size.util';
import { TaskCode } from '@genhub/errors';

type Input = Record<string, unknown>;

/**
 * An OpenAI-compatible API: images/generations (text-to-image), audio/speech
 * (text-to-speech) and audio/transcriptions (speech-to-text → text output).
 * Synchronous: a cancel aborts the HTTP request.
 */
export class OpenAiAdapter implements ModelAdapter<Input> {
  constructor(private readonly upstream: UpstreamSettings) {}

  async run(ctx: RunContext<Input>): Promise<AdapterResult> {
    switch (ctx.route.kind) {
      case 'text-to-image':
        return { outputs: await this.image(ctx) };
      case 'text-to-speech':
        return { outputs: await this.speech(ctx) };
      case 'speech-to-text':
        return { outputs: await this.transcription(ctx) };
      default:
        throw new AdapterError(
          TaskCode.TaskFailed,
          `an OpenAI-compatible upstream cannot run ${ctx.route.kind ?? 'this model'}`,
        );
    }
  }

  private async image(ctx: RunContext<Input>): Promise<AdapterOutput[]> {
    const { input, route } = ctx;
    const model = route.upstreamModel;
    // gpt-image-* always answers b64_json and refuses response_format; dall-e is asked for b64_json.
    const gptImage = model.startsWith('gpt-image');
    const body = {
      model,
      prompt: input.prompt,
      n: input.num_outputs ?? 1,
      size: openAiImageSize(model, input.aspect_ratio as string, input.resolution as string),
      ...(gptImage
        ? { output_format: input.output_format ?? 'png' }
        : { response_format: 'b64_json' }),
    };
    const answer = objectOf(await this.call(ctx, '/images/generations', JSON.stringify(body)));
    const data = Array.isArray(answer.data)
      ? (answer.data as { b64_json?: string; url?: string }[])
      : [];
    const type = `image/${gptImage ? String(input.output_format ?? 'png') : 'png'}`;
    return nonEmpty(
      data.map((d) =>
        d.b64_json
          ? bytesOutput(Buffer.from(d.b64_json, 'base64'), type)
          : urlOutput(String(d.url)),
      ),
    );
  }

  private async speech(ctx: RunContext<Input>): Promise<AdapterOutput[]> {
    const { input, route } = ctx;
    const body = {
      model: route.upstreamModel,
      input: input.text,
      voice: input.voice ?? 'alloy',
      response_format: 'wav',
      ...(input.speed !== undefined ? { speed: input.speed } : {}),
    };
    const answer = await this.call(ctx, '/audio/speech', JSON.stringify(body));
    if (!answer.body.length)
      throw new AdapterError(TaskCode.ServiceUnavailable, 'upstream answered no audio');
    return [bytesOutput(answer.body, answer.headers.get('content-type') ?? 'audio/wav')];
  }

  private async transcription(ctx: RunContext<Input>): Promise<AdapterOutput[]> {
    const { input, route } = ctx;
    const audio = await ctx.fetchMedia(String(input.audio_url), 'audio');
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(audio.data)], { type: audio.contentType }),
      `audio.${audio.contentType.split('/')[1] ?? 'bin'}`,
    );
    form.append('model', route.upstreamModel);
    form.append('response_format', 'json');
    if (input.language) form.append('language', String(input.language));
    if (input.prompt) form.append('prompt', String(input.prompt));
    const answer = objectOf(await this.call(ctx, '/audio/transcriptions', form));
    if (typeof answer.text !== 'string')
      throw new AdapterError(TaskCode.ServiceUnavailable, 'upstream answered no transcript');
    return [{ kind: 'text', text: answer.text }];
  }

  private call(ctx: RunContext<Input>, path: string, body: string | FormData) {
    const headers: Record<string, string> = {};
    if (this.upstream.apiKey) headers.authorization = `Bearer ${this.upstream.apiKey}`;
    // fetch sets the multipart boundary itself.
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    const call: UpstreamCall = {
      method: 'POST',
      url: `${this.upstream.baseUrl}${path}`,
      headers,
      body,
      signal: ctx.signal,
      timeoutMs: this.upstream.timeoutMs,
      onError: openAiError,
    };
    ctx.progress?.(0);
    return callUpstream(call);
  }
}
