import { Injectable } from '@nestjs/common';
import type { ChatCompletionChunkDto } from '@genhub/contracts/server';
import { ChatCatalogue, RoutedStream, streamOverRoutes } from '@genhub/providers';
import { chatFailure } from './chat-failure.util';
import type { ChatCompletionInput } from './create-chat-completion.use-case';
import { ChatSession, ChatSessions } from './chat-session.service';

/**
 * `POST /v1/chat/completions` with `stream: true`. `execute` resolves once the
 * first upstream chunk is in hand (so every failure up to then is an ordinary
 * error answer, with fall-over behind it); the events then follow. The usage
 * is captured when the stream ends; a stream that breaks off or whose client
 * leaves is released and costs nothing.
 */
@Injectable()
export class StreamChatCompletionUseCase {
  constructor(
    private readonly sessions: ChatSessions,
    private readonly catalogue: ChatCatalogue,
  ) {}

  async execute(input: ChatCompletionInput): Promise<AsyncIterable<ChatCompletionChunkDto>> {
    const session = await this.sessions.open(input.accountId, input.body, input.apiKey);
    let routed: RoutedStream;
    try {
      routed = await streamOverRoutes(
        this.catalogue,
        session.routes,
        session.request,
        input.signal,
      );
    } catch (error) {
      await session.release();
      throw chatFailure(error);
    }
    return this.events(session, routed, input.body.stream_options?.include_usage === true);
  }

  private async *events(
    session: ChatSession,
    routed: RoutedStream,
    includeUsage: boolean,
  ): AsyncGenerator<ChatCompletionChunkDto> {
    const chunk = (choices: ChatCompletionChunkDto['choices']): ChatCompletionChunkDto => ({
      id: session.id,
      object: 'chat.completion.chunk',
      created: session.created,
      model: session.model.id,
      choices,
    });
    try {
      yield chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
      for await (const piece of routed.chunks) {
        if (piece.kind === 'delta')
          yield chunk([{ index: 0, delta: { content: piece.content }, finish_reason: null }]);
        else if (piece.kind === 'finish')
          yield chunk([{ index: 0, delta: {}, finish_reason: piece.finishReason }]);
        else {
          await session.capture(routed.route, piece.usage);
          const { promptTokens, completionTokens } = piece.usage;
          if (includeUsage)
            yield {
              ...chunk([]),
              usage: {
                prompt_tokens: promptTokens,
                completion_tokens: completionTokens,
                total_tokens: promptTokens + completionTokens,
              },
            };
        }
      }
    } catch (error) {
      throw chatFailure(error);
    } finally {
      await session.release();
    }
  }
}
