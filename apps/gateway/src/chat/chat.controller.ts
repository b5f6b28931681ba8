import { Body, Controller, Get, Param, Post, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard, AuthenticatedAccount, CurrentAccount } from '@genhub/accounts-feature';
import { ChatCompletionRequestDto } from '@genhub/contracts/server';
import {
  CreateChatCompletionUseCase,
  GetChatModelUseCase,
  ListChatModelsUseCase,
  StreamChatCompletionUseCase,
} from '@genhub/chat-feature';
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
  ) {}

  @Get('v1/models')
  models() {
    return this.listModels.execute();
  }

  /** Fastify's wildcard: chat model ids hold slashes (`local/chat`), as the client sends them. */
  @Get('v1/models/*')
  model(@Param('*') id: string) {
    return this.getModel.execute(id);
  }

  @Post('v1/chat/completions')
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: ChatCompletionRequestDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = { accountId: account.id, body, signal: abortOnDisconnect(reply) };
    if (!body.stream) {
      const completion = await this.complete.execute(input);
      await reply.status(200).send(completion);
      return;
    }
    await writeEventStream(reply, await this.stream.execute(input));
  }
}
