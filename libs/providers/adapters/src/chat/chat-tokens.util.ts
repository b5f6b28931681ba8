import type { ChatMessage } from './chat-backend.util';

/**
 * The local model's tokenizer, simple on purpose: a token is a run of letters,
 * digits and underscores, or one other non-space character, together with the
 * white space before it. "Hello, world!" is 4 tokens: `Hello` `,` ` world` `!`.
 */
const TOKEN = /\s*(?:[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_])/gu;

/** The text cut into tokens; joined again they give the text back (trailing white space aside). */
export function splitTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function countTokens(text: string): number {
  return splitTokens(text).length;
}

/** Per message (role and separators) and for priming the reply, as common chat APIs count. */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_PER_REPLY = 3;

/** Prompt tokens of a conversation under the local tokenizer. */
export function countPromptTokens(messages: ChatMessage[]): number {
  return messages.reduce(
    (sum, m) => sum + TOKENS_PER_MESSAGE + countTokens(m.content) + (m.name ? 1 : 0),
    TOKENS_PER_REPLY,
  );
}

/**
 * An upper bound of the prompt tokens ANY byte-level tokenizer can count (a
 * token is at least one UTF-8 byte), plus a generous per-message overhead.
 * The reservation uses it so that the actual cost can never exceed it.
 */
export function promptTokenBound(messages: ChatMessage[]): number {
  return messages.reduce(
    (sum, m) => sum + 8 + Buffer.byteLength(m.content) + Buffer.byteLength(m.name ?? ''),
    8,
  );
}
