import '@fastify/multipart';
import { Readable } from 'node:stream';
import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiKeyGuard,
  AuthenticatedAccount,
  CurrentAccount,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  ChatRoute,
  type ImageDataDto,
  ImageGenerationDto,
  ImageGenerationRequestDto,
  SpeechRequestDto,
  TranscriptionDto,
  TranscriptionRequestDto,
} from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';
import { UploadFileUseCase } from '@genhub/storage';
import { MediaTaskUseCase } from './media-task.use-case';
import {
  imageInput,
  speechInput,
  transcriptionFields,
  transcriptionInput,
} from './openai-params.util';
import { readTranscriptionForm } from './transcription-form.util';

/** What every media route may refuse after authentication (OpenAI's shape, decision 0136). */
const MEDIA_ERRORS = [
  AppErrorCode.InvalidRequest,
  AppErrorCode.InsufficientBalance,
  AppErrorCode.KeySpendLimitReached,
  AppErrorCode.ModelNotFound,
  AppErrorCode.ScopeNotAllowed,
  AppErrorCode.ModelNotAllowed,
  AppErrorCode.UpstreamError,
  AppErrorCode.SyncWaitExpired,
] as const;

const SYNC_NOTE =
  'A synchronous submit of the model named by its full slug: reserved, run and settled by the task engine like `?sync=true` (task history, per-key rules). A task that outlives the synchronous wait answers 504 `sync_wait_expired` with `x-should-retry: false`; it goes on and is billed once when it ends.';

/**
 * OpenAI's media endpoints over genhub's models, so code written with the openai SDK's
 * `images.generate`, `audio.speech.create` and `audio.transcriptions.create` runs unchanged
 * (decision 0136). Authentication refusals happen in the guard ({code, error}); everything
 * after it answers `{error: {message, type, param, code}}`.
 */
@Controller('v1')
@UseGuards(ApiKeyGuard)
@RequiresScope('tasks:write')
export class OpenAiMediaController {
  constructor(
    private readonly media: MediaTaskUseCase,
    private readonly uploadFile: UploadFileUseCase,
  ) {}

  @Post('images/generations')
  @HttpCode(200)
  @ChatRoute({
    operationId: 'createImage',
    tag: 'Chat',
    summary: 'Generate images (OpenAI-compatible)',
    description: `${SYNC_NOTE} \`size\` becomes \`aspect_ratio\` and \`resolution\`, \`n\` \`num_outputs\`; \`b64_json\` carries the stored image’s bytes.`,
    ok: { description: 'The images.', type: ImageGenerationDto },
    errors: [...MEDIA_ERRORS],
  })
  async images(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: ImageGenerationRequestDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ImageGenerationDto> {
    const task = await this.submit(reply, () =>
      this.media.run(account, request, {
        route: 'images',
        model: body.model,
        input: imageInput(body),
        params: {
          prompt: 'prompt',
          num_outputs: 'n',
          aspect_ratio: 'size',
          resolution: 'size',
          output_format: 'output_format',
        },
      }),
    );
    const data: ImageDataDto[] = [];
    for (const url of task.outputs)
      data.push(
        body.response_format === 'b64_json'
          ? { b64_json: (await this.media.outputFile(url)).data.toString('base64') }
          : { url },
      );
    return { created: Math.floor(Date.now() / 1000), data };
  }

  @Post('audio/speech')
  @ChatRoute({
    operationId: 'createSpeech',
    tag: 'Chat',
    summary: 'Synthesize speech (OpenAI-compatible)',
    description: `${SYNC_NOTE} \`input\` becomes \`text\`; the answer is the audio file itself.`,
    ok: {
      description: 'The audio (WAV).',
      content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } },
    },
    errors: [...MEDIA_ERRORS],
  })
  async speech(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: SpeechRequestDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const task = await this.submit(reply, () =>
      this.media.run(account, request, {
        route: 'speech',
        model: body.model,
        input: speechInput(body),
        params: { text: 'input', voice: 'voice', speed: 'speed' },
      }),
    );
    const audio = await this.media.outputFile(task.outputs[0]);
    await reply.status(200).header('content-type', audio.contentType).send(audio.data);
  }

  @Post('audio/transcriptions')
  @HttpCode(200)
  @ChatRoute({
    operationId: 'createTranscription',
    tag: 'Chat',
    summary: 'Transcribe audio (OpenAI-compatible)',
    description: `${SYNC_NOTE} The \`file\` is stored as an upload of the account (its quotas and 7-day retention apply) and given to the model as \`audio_url\`.`,
    ok: {
      description: '`{text}`, or with `response_format: text` the bare text.',
      content: {
        'application/json': { schema: { $ref: getSchemaPath(TranscriptionDto) } },
        'text/plain': { schema: { type: 'string' } },
      },
    },
    errors: [...MEDIA_ERRORS, AppErrorCode.PayloadTooLarge],
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ required: true, type: TranscriptionRequestDto })
  async transcriptions(
    @CurrentAccount() account: AuthenticatedAccount,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TranscriptionDto | string> {
    const form = await readTranscriptionForm(request);
    const fields = transcriptionFields(form.fields);
    // Checked before the file is stored: a refused model keeps nothing.
    this.media.checkModel(account, 'transcriptions', fields.model);
    const { url } = await this.uploadFile.execute({
      accountId: account.id,
      files: (async function* () {
        yield { fieldName: 'file', stream: Readable.from([form.file]) };
      })(),
    });
    const task = await this.submit(reply, () =>
      this.media.run(account, request, {
        route: 'transcriptions',
        model: fields.model,
        input: transcriptionInput(fields, url),
        params: { audio_url: 'file', language: 'language', prompt: 'prompt' },
      }),
    );
    const text = task.outputs[0] ?? '';
    if (fields.response_format === 'text') {
      reply.header('content-type', 'text/plain; charset=utf-8');
      return text;
    }
    return { text };
  }

  /**
   * Runs a media task; a wait that ran out tells the SDK not to retry (a retry would start
   * and bill a second task while the first goes on).
   */
  private async submit<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppException && error.code === AppErrorCode.SyncWaitExpired)
        reply.header('x-should-retry', 'false');
      throw error;
    }
  }
}
