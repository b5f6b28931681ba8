import { setTimeout as sleep } from 'node:timers/promises';
import {
  ChatBackend,
  ChatBackendError,
  ChatChunk,
  ChatCompletion,
  ChatContext,
  ChatFinishReason,
  ChatMessage,
  ChatRequest,
} from './chat-backend.util';
import { countPromptTokens, countTokens, splitTokens } from './chat-tokens.util';

export interface LocalChatOptions {
  /** Pause between streamed words, so a stream looks like one. */
  wordDelayMs?: number;
}

const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i;

/** The reply before limits: deterministic, a function of the conversation only. */
export function localReply(messages: ChatMessage[]): string {
  const users = messages.filter((m) => m.role === 'user');
  const last = users[users.length - 1]?.content.trim() ?? '';
  if (!last) return 'Hello! I am the local chat model. Send me a message and I will answer it.';
  if (GREETING.test(last))
    return 'Hello! I am genhub’s offline local chat model. I answer deterministically: ask me anything and I will echo and summarise it.';
  const words = last.split(/\s+/).filter(Boolean);
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a), '');
  const kind = last.endsWith('?') ? 'asked' : 'said';
  return (
    `You ${kind}: "${last}". ` +
    `That is ${words.length} word${words.length === 1 ? '' : 's'} in ${countTokens(last)} tokens; ` +
    `the longest word is "${longest}". ` +
    `This is message ${users.length} of our conversation.`
  );
}

/** Applies `stop` then `max_tokens` to the reply; the tokens are what is sent. */
export function limitReply(
  reply: string,
  request: Pick<ChatRequest, 'maxTokens' | 'stop'>,
): { tokens: string[]; finishReason: ChatFinishReason } {
  let text = reply;
  let finishReason: ChatFinishReason = 'stop';
  for (const stop of request.stop ?? []) {
    const at = stop ? text.indexOf(stop) : -1;
    if (at >= 0) text = text.slice(0, at);
  }
  let tokens = splitTokens(text);
  if (tokens.length > request.maxTokens) {
    tokens = tokens.slice(0, request.maxTokens);
    finishReason = 'length';
  }
  return { tokens, finishReason };
}

/**
 * The offline chat model (`local/chat`): a small rule-based assistant that
 * echoes and summarises the last user message, honours `max_tokens` and
 * `stop`, streams word by word and counts tokens with `chat-tokens.util`.
 */
export class LocalChatBackend implements ChatBackend {
  constructor(private readonly options: LocalChatOptions = {}) {}

  async complete(request: ChatRequest, context: ChatContext): Promise<ChatCompletion> {
    if (context.signal.aborted) throw new ChatBackendError('aborted', 'client went away');
    const { tokens, finishReason } = limitReply(localReply(request.messages), request);
    return {
      content: tokens.join(''),
      finishReason,
      usage: {
        promptTokens: countPromptTokens(request.messages),
        completionTokens: tokens.length,
      },
    };
  }

  async *stream(request: ChatRequest, context: ChatContext): AsyncGenerator<ChatChunk> {
    const { tokens, finishReason } = limitReply(localReply(request.messages), request);
    for (const [index, token] of tokens.entries()) {
      if (context.signal.aborted) throw new ChatBackendError('aborted', 'client went away');
      if (index > 0 && this.options.wordDelayMs) await sleep(this.options.wordDelayMs);
      yield { kind: 'delta', content: token };
    }
    yield { kind: 'finish', finishReason };
    yield {
      kind: 'usage',
      usage: {
        promptTokens: countPromptTokens(request.messages),
        completionTokens: tokens.length,
      },
    };
  }
}
