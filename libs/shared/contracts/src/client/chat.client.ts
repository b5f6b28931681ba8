import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ChatCompletionChunk, ChatCompletionRequest, ChatError } from '../types';
import { type GenhubClient, GenhubRequestError } from './genhub.client';
import type { RequestOptions } from './task-events.client';

/**
 * Thrown by `chatCompletionStream` when the stream fails after it started:
 * the status was already sent, so the server ends with an error event in the
 * chat error shape (`body`) instead.
 */
export class ChatStreamError extends Error {
  constructor(readonly body: ChatError) {
    super(body.error.message);
    this.name = 'ChatStreamError';
  }
}

/**
 * A streamed chat completion (`POST /v1/chat/completions` with `stream: true`)
 * as an async iterator of its chunks, in browsers and in Node alike. A refusal
 * before the stream starts throws `GenhubRequestError` (status and chat error
 * body); a failure after it throws `ChatStreamError`. Leaving the loop early
 * closes the connection (and the server stops generating).
 *
 * ```ts
 * let text = '';
 * for await (const chunk of chatCompletionStream(client, {
 *   model: 'local/chat',
 *   messages: [{ role: 'user', content: 'hello' }],
 * })) {
 *   text += chunk.choices[0]?.delta.content ?? '';
 * }
 * ```
 */
export async function* chatCompletionStream(
  client: GenhubClient,
  request: Omit<ChatCompletionRequest, 'stream'>,
  options: RequestOptions = {},
): AsyncGenerator<ChatCompletionChunk> {
  const {
    data: body,
    error,
    response,
  } = await client.POST('/v1/chat/completions', {
    body: { ...request, stream: true },
    parseAs: 'stream',
    signal: options.signal,
  });
  if (error !== undefined || !body) throw new GenhubRequestError(response.status, error);
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => pending.push(message) });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the chat stream ended before [DONE]');
      parser.feed(value);
      for (let message = pending.shift(); message; message = pending.shift()) {
        if (message.data === '[DONE]') return;
        const event = JSON.parse(message.data) as ChatCompletionChunk | ChatError;
        if ('error' in event) throw new ChatStreamError(event);
        yield event;
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
