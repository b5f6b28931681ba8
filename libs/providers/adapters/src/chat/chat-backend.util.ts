/** One message of a conversation (text content only). */
export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string;
  name?: string;
}

/** A chat request as the backends see it: validated, model resolved, limits settled. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Completion token limit; always set (the gateway applies its default cap). */
  maxTokens: number;
  temperature?: number;
  topP?: number;
  /** Up to four stop sequences; the text stops before the first one found. */
  stop?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  user?: string;
}

export interface ChatContext {
  /** Fires when the client disconnects (or the gateway gives up): stop and cancel upstream. */
  signal: AbortSignal;
  /** The route's upstream model name. */
  upstreamModel: string;
}

export type ChatFinishReason = 'stop' | 'length' | 'content_filter';

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatCompletion {
  content: string;
  finishReason: ChatFinishReason;
  usage: ChatUsage;
}

/**
 * A streamed piece. A stream yields text deltas, then exactly one `finish`,
 * then exactly one `usage` (the gateway bills from it).
 */
export type ChatChunk =
  | { kind: 'delta'; content: string }
  | { kind: 'finish'; finishReason: ChatFinishReason }
  | { kind: 'usage'; usage: ChatUsage };

/** Runs chat completions against one upstream (or the local model). Plain classes, testable without Nest. */
export interface ChatBackend {
  complete(request: ChatRequest, context: ChatContext): Promise<ChatCompletion>;
  stream(request: ChatRequest, context: ChatContext): AsyncIterable<ChatChunk>;
}

/**
 * Why an upstream call failed:
 * - `invalid_request`: the upstream refused the request itself (its 400); the client must change it;
 * - `upstream_auth`: the upstream refused our credentials (401/403): an operator problem;
 * - `transient`: 429, 5xx, unreachable, time limit — worth trying the next route;
 * - `bad_response`: the upstream answered something we cannot read;
 * - `aborted`: the caller's signal fired.
 */
export type ChatFailureKind =
  'invalid_request' | 'upstream_auth' | 'transient' | 'bad_response' | 'aborted';

export class ChatBackendError extends Error {
  constructor(
    readonly kind: ChatFailureKind,
    message: string,
    /** The upstream's HTTP status, when there was one. */
    readonly status?: number,
    /** The request field the upstream blamed (its `param`), for `invalid_request`. */
    readonly param?: string | null,
  ) {
    super(message);
    this.name = 'ChatBackendError';
  }

  get transient(): boolean {
    return this.kind === 'transient';
  }
}
