import { outboundFetch } from '@genhub/outbound';
import {
  ChatBackend,
  ChatBackendError,
  ChatChunk,
  ChatCompletion,
  ChatContext,
  ChatFinishReason,
  ChatRequest,
  ChatUsage,
} from './chat-backend.util';
import { countPromptTokens, countTokens } from './chat-tokens.util';
import { sseData } from './sse.util';

export interface OpenAiChatOptions {
  /** e.g. `https://api.openai.com/v1`; requests go to `{baseUrl}/chat/completions`. */
  baseUrl: string;
  apiKey?: string;
  /** Time limit of one upstream call, streaming included. */
  timeoutMs: number;
}

interface UpstreamUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}
interface UpstreamChoice {
  message?: { content?: string | null };
  delta?: { content?: string | null };
  finish_reason?: string | null;
}
interface UpstreamBody {
  choices?: UpstreamChoice[];
  usage?: UpstreamUsage | null;
  error?: { message?: string; param?: string | null };
}

const FINISH_REASONS: readonly ChatFinishReason[] = ['stop', 'length', 'content_filter'];
const finishReason = (value: unknown): ChatFinishReason =>
  FINISH_REASONS.includes(value as ChatFinishReason) ? (value as ChatFinishReason) : 'stop';

/** The upstream's usage, or our own count when it sent none (so a completion is never free). */
function usageOf(usage: UpstreamUsage | null | undefined, request: ChatRequest, text: string) {
  return {
    promptTokens: usage?.prompt_tokens ?? countPromptTokens(request.messages),
    completionTokens: usage?.completion_tokens ?? countTokens(text),
  } satisfies ChatUsage;
}

/** An upstream HTTP failure → what the gateway does about it. */
async function failureOf(response: Response): Promise<ChatBackendError> {
  let body: UpstreamBody = {};
  try {
    body = (await response.json()) as UpstreamBody;
  } catch {
    // Not JSON: the status alone decides.
  }
  const message = body.error?.message ?? `upstream answered ${response.status}`;
  const status = response.status;
  if (status === 401 || status === 403)
    return new ChatBackendError('upstream_auth', 'upstream refused the credentials', status);
  if (status === 408 || status === 409 || status === 429 || status >= 500)
    return new ChatBackendError('transient', message, status);
  // The upstream does not know the configured model: an operator problem, not the client's.
  if (status === 404) return new ChatBackendError('bad_response', message, status);
  return new ChatBackendError('invalid_request', message, status, body.error?.param ?? null);
}

/**
 * An OpenAI-compatible chat upstream: `POST {base_url}/chat/completions` with
 * a bearer key, JSON or SSE answers, usage from the upstream's `usage`
 * (asked for in streams with `stream_options.include_usage`).
 */
export class OpenAiChatBackend implements ChatBackend {
  constructor(private readonly options: OpenAiChatOptions) {}

  async complete(request: ChatRequest, context: ChatContext): Promise<ChatCompletion> {
    const { response, done } = await this.post(request, context, false);
    try {
      let body: UpstreamBody;
      try {
        body = (await response.json()) as UpstreamBody;
      } catch {
        throw this.interrupted(context, 'upstream answered malformed JSON');
      }
      const choice = body.choices?.[0];
      if (!choice?.message) throw new ChatBackendError('bad_response', 'upstream sent no choice');
      const content = choice.message.content ?? '';
      return {
        content,
        finishReason: finishReason(choice.finish_reason),
        usage: usageOf(body.usage, request, content),
      };
    } finally {
      done();
    }
  }

  async *stream(request: ChatRequest, context: ChatContext): AsyncGenerator<ChatChunk> {
    const { response, done } = await this.post(request, context, true);
    let text = '';
    let finish: ChatFinishReason | undefined;
    let usage: UpstreamUsage | undefined;
    try {
      if (!response.body) throw new ChatBackendError('bad_response', 'upstream sent no body');
      try {
        for await (const data of sseData(response.body)) {
          if (data.trim() === '[DONE]') break;
          let event: UpstreamBody;
          try {
            event = JSON.parse(data) as UpstreamBody;
          } catch {
            throw new ChatBackendError('bad_response', 'upstream sent a malformed event');
          }
          if (event.error)
            throw new ChatBackendError('bad_response', event.error.message ?? 'upstream error');
          if (event.usage) usage = event.usage;
          const choice = event.choices?.[0];
          const content = choice?.delta?.content;
          if (content) {
            text += content;
            yield { kind: 'delta', content };
          }
          if (choice?.finish_reason) finish = finishReason(choice.finish_reason);
        }
      } catch (error) {
        if (error instanceof ChatBackendError) throw error;
        throw this.interrupted(context, 'upstream stream broke off');
      }
      yield { kind: 'finish', finishReason: finish ?? 'stop' };
      yield { kind: 'usage', usage: usageOf(usage, request, text) };
    } finally {
      // Also when the consumer stops early: the upstream connection is closed.
      done();
    }
  }

  /** Sends the request; answers only a 2xx response, throws a ChatBackendError otherwise. */
  private async post(
    request: ChatRequest,
    context: ChatContext,
    stream: boolean,
  ): Promise<{ response: Response; done: () => void }> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const finished = new AbortController();
    const signal = AbortSignal.any([context.signal, timeout, finished.signal]);
    const body = {
      model: context.upstreamModel,
      messages: request.messages,
      max_tokens: request.maxTokens,
      temperature: request.temperature,
      top_p: request.topP,
      stop: request.stop,
      presence_penalty: request.presencePenalty,
      frequency_penalty: request.frequencyPenalty,
      seed: request.seed,
      user: request.user,
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
    let response: Response;
    try {
      response = await outboundFetch(
        `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: stream ? 'text/event-stream' : 'application/json',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          signal,
        },
      );
    } catch {
      throw this.interrupted(
        context,
        timeout.aborted ? 'upstream time limit' : 'upstream unreachable',
      );
    }
    if (!response.ok) {
      const failure = await failureOf(response);
      finished.abort();
      throw failure;
    }
    return { response, done: () => finished.abort() };
  }

  /** A broken call: the client's abort, or a transient upstream failure. */
  private interrupted(context: ChatContext, message: string): ChatBackendError {
    return context.signal.aborted
      ? new ChatBackendError('aborted', 'client went away')
      : new ChatBackendError('transient', message);
  }
}
