import { Body, Controller, Get, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiParam, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  AnyValidKey,
  ApiKeyGuard,
  assertModelAllowed,
  AuthenticatedAccount,
  CurrentAccount,
  keyMayUse,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  ChatCompletionChunkDto,
  ChatCompletionDto,
  ChatCompletionRequestDto,
  ChatModelDto,
  ChatModelListDto,
  ChatRoute,
} from '@genhub/contracts/server';
import { AppErrorCode } from '@genhub/errors';
import {
  CreateChatCompletionUseCase,
  GetChatModelUseCase,
  ListChatModelsUseCase,
  StreamChatCompletionUseCase,
} from '@genhub/chat-feature';
import { ModelCatalogue } from '@genhub/providers';
import { mediaModelViews } from '../openai-media/media-models.util';
import { abortOnDisconnect, writeEventStream } from './event-stream.util';

/**
 * The OpenAI-compatible chat endpoints. Authentication refusals happen in the
 * guard ({code, error}); everything after it answers in the chat error shape.
 */
@Controller()
@UseGuards(ApiKeyGuard)
export class ChatController {
  constructor(
    private readonly complete: CreateChatCompletionUseCase,
    private readonly stream: StreamChatCompletionUseCase,
    private readonly listModels: ListChatModelsUseCase,
    private readonly getModel: GetChatModelUseCase,
    private readonly catalogue: ModelCatalogue,
  ) {}

  @Get('v1/models')
  @AnyValidKey()
  @ChatRoute({
    operationId: 'listChatModels',
    tag: 'Chat',
    summary: 'List chat and media models (OpenAI-compatible)',
    description:
      "The chat models, then the task models the images and audio routes take (text-to-image, text-to-speech, speech-to-text; `owned_by` their provider): ids are what `model` of a chat completion or a media call takes. `GET /api/v3/models` lists every task model. Only those the caller's key may use (`allowed_models`).",
    ok: { description: 'The chat models.', type: ChatModelListDto },
  })
  models(@CurrentAccount() account: AuthenticatedAccount) {
    const list = this.listModels.execute();
    // Then the models of the OpenAI-compatible media routes (decision 0136).
    const media = mediaModelViews(this.catalogue);
    return {
      ...list,
      data: [...list.data, ...media].filter((model) => keyMayUse(account, model.id)),
    };
  }

  /** Fastify's wildcard: chat model ids hold slashes (`local/chat`), as the client sends them. */
  @Get('v1/models/*')
  @AnyValidKey()
  @ChatRoute({
    operationId: 'getChatModel',
    tag: 'Chat',
    summary: 'Retrieve a chat or media model (OpenAI-compatible)',
    description:
      'One entry of `GET /v1/models` (a chat model, or a model of the images and audio routes), or 404 in the chat error shape (`param: "model"`).',
    ok: { description: 'The chat model.', type: ChatModelDto },
    errors: [AppErrorCode.ModelNotFound, AppErrorCode.ModelNotAllowed],
  })
  @ApiParam({
    name: 'model',
    type: String,
    description:
      'A chat model id. Its slash may be sent as is or percent-encoded (`local%2Fchat`).',
  })
  model(@CurrentAccount() account: AuthenticatedAccount, @Param('*') id: string) {
    const media = mediaModelViews(this.catalogue).find((entry) => entry.id === id);
    const model = media ?? this.getModel.execute(id);
    assertModelAllowed(account, model.id);
    return model;
  }

  @Post('v1/chat/completions')
  @RequiresScope('tasks:write')
  @ChatRoute({
    operationId: 'createChatCompletion',
    tag: 'Chat',
    summary: 'Create a chat completion (OpenAI-compatible)',
    description:
      'Billed by tokens: the upper bound (prompt + `max_tokens`, default cap 4096, at the model’s prices) is reserved first, the actual cost from the usage is charged at the end and the rest returned; a failed completion costs nothing. With `stream: true` the answer is server-sent events; an error after the first event arrives as a last `data: {"error": …}` event.',
    ok: {
      description:
        'The completion (`application/json`), or with `stream: true` a `text/event-stream` of `data: <ChatCompletionChunk>` events ending with `data: [DONE]`.',
      content: {
        'application/json': { schema: { $ref: getSchemaPath(ChatCompletionDto) } },
        'text/event-stream': {
          // As common chat APIs document it: the schema is that of each event's `data:`.
          schema: { $ref: getSchemaPath(ChatCompletionChunkDto) },
          example: {
            id: 'chatcmpl-0f8fad5b-d9cb-469f-a165-70867728950e',
            object: 'chat.completion.chunk',
            created: 1735689600,
            model: 'local/chat',
            choices: [
              { index: 0, delta: { role: 'assistant', content: 'You' }, finish_reason: null },
            ],
          },
        },
      },
    },
    errors: [
      AppErrorCode.InvalidRequest,
      AppErrorCode.InsufficientBalance,
      AppErrorCode.KeySpendLimitReached,
      AppErrorCode.ModelNotFound,
      AppErrorCode.UpstreamError,
      AppErrorCode.ServiceUnavailable,
      AppErrorCode.ScopeNotAllowed,
      AppErrorCode.ModelNotAllowed,
    ],
  })
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: ChatCompletionRequestDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // Before anything is reserved; a refusal here answers in the chat error shape.
    assertModelAllowed(account, body.model);
    const input = {
      accountId: account.id,
      apiKey: { id: account.apiKeyId, spendLimit: account.apiKeyLimits.spendLimit },
      body,
      signal: abortOnDisconnect(reply),
    };
    if (!body.stream) {
      const completion = await this.complete.execute(input);
      await reply.status(200).send(completion);
      return;
    }
    await writeEventStream(reply, await this.stream.execute(input));
  }
}
