import { Injectable } from '@nestjs/common';
import type { ChatCompletionDto, ChatCompletionRequestDto } from '@genhub/contracts/server';
import { ChatCatalogue, completeOverRoutes } from '@genhub/providers';
import { chatFailure } from './chat-failure.util';
import { ChatSessions } from './chat-session.service';
import type { ChatKey } from '../../ports/chat-ledger.port';

export interface ChatCompletionInput {
  accountId: string;
  /** The calling key: its limit counts, its id goes on the usage record (issue 37). */
  apiKey?: ChatKey;
  body: ChatCompletionRequestDto;
  /** Fires when the client disconnects: the upstream call is cancelled. */
  signal: AbortSignal;
}

/** `POST /v1/chat/completions` without streaming: one `chat.completion`, billed by its usage. */
@Injectable()
export class CreateChatCompletionUseCase {
  constructor(
    private readonly sessions: ChatSessions,
    private readonly catalogue: ChatCatalogue,
  ) {}

  async execute(input: ChatCompletionInput): Promise<ChatCompletionDto> {
    const session = await this.sessions.open(input.accountId, input.body, input.apiKey);
    try {
      const { route, completion } = await completeOverRoutes(
        this.catalogue,
        session.routes,
        session.request,
        input.signal,
      );
      await session.capture(route, completion.usage);
      const { promptTokens, completionTokens } = completion.usage;
      return {
        id: session.id,
        object: 'chat.completion',
        created: session.created,
        model: session.model.id,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: completion.content },
            finish_reason: completion.finishReason,
          },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      };
    } catch (error) {
      await session.release();
      throw chatFailure(error);
    }
  }
}
