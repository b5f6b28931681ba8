import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import { AddressInfo } from 'node:net';

export interface FakeChatRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    max_tokens?: number;
    [key: string]: unknown;
  };
  /** True once the client closed the connection before the answer was complete. */
  closedEarly: boolean;
}

/** What the fake does with the next request (a script entry is used once; the default after that). */
export type FakeChatBehaviour =
  /** A normal answer: `content` (default: `Fake reply to: <last user message>`), these usage numbers. */
  | {
      kind: 'reply';
      content?: string;
      promptTokens?: number;
      completionTokens?: number;
      wordDelayMs?: number;
      omitUsage?: boolean;
    }
  /** An HTTP error with an OpenAI-style error body. */
  | { kind: 'status'; status: number; message?: string; param?: string | null }
  /** Accepts the request and never answers (until close()). */
  | { kind: 'hang' }
  /** Streams `words` words, then the connection drops without [DONE]. */
  | { kind: 'break-stream'; words: number };

/**
 * A fake OpenAI-compatible chat upstream on 127.0.0.1: `POST /chat/completions`
 * with JSON or SSE answers (as the OpenAI API documents them), scriptable
 * failures, and a record of every request including whether its client
 * went away early.
 */
export class FakeOpenAiChat {
  readonly requests: FakeChatRequest[] = [];
  private readonly script: FakeChatBehaviour[] = [];
  private readonly open = new Set<ServerResponse>();
  private server!: Server;
  port = 0;

  constructor(public behaviour: FakeChatBehaviour = { kind: 'reply' }) {}

  static async start(behaviour?: FakeChatBehaviour): Promise<FakeOpenAiChat> {
    const fake = new FakeOpenAiChat(behaviour);
    fake.server = createServer((req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** The `base_url` to configure: `http://127.0.0.1:<port>/v1`. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** The next requests get these behaviours, in order. */
  enqueue(...behaviours: FakeChatBehaviour[]): void {
    this.script.push(...behaviours);
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: FakeChatRequest['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeChatRequest['body'];
    } catch {
      // recorded as empty
    }
    const record: FakeChatRequest = {
      url: req.url ?? '',
      headers: req.headers,
      body,
      closedEarly: false,
    };
    this.requests.push(record);
    this.open.add(res);
    res.on('close', () => {
      this.open.delete(res);
      if (!res.writableFinished) record.closedEarly = true;
    });
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      this.error(res, 404, 'Unknown path');
      return;
    }
    const b = this.script.shift() ?? this.behaviour;
    if (b.kind === 'hang') return;
    if (b.kind === 'status') {
      this.error(res, b.status, b.message ?? `fake error ${b.status}`, b.param ?? null);
      return;
    }
    const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
    const content =
      b.kind === 'reply' && b.content !== undefined
        ? b.content
        : `Fake reply to: ${last?.content ?? ''}`;
    const usage = {
      prompt_tokens: (b.kind === 'reply' && b.promptTokens) || 11,
      completion_tokens: (b.kind === 'reply' && b.completionTokens) || content.split(' ').length,
    };
    const base = { id: 'chatcmpl-fake', created: 1_700_000_000, model: body.model ?? 'fake' };
    const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          ...(b.kind === 'reply' && b.omitUsage ? {} : { usage: fullUsage }),
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const chunk = (delta: object, finish: string | null) => ({
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    event(chunk({ role: 'assistant', content: '' }, null));
    const words = content.split(/(?= )/);
    const delay = b.kind === 'reply' ? (b.wordDelayMs ?? 0) : 5;
    for (const [index, word] of words.entries()) {
      if (b.kind === 'break-stream' && index === b.words) {
        res.destroy();
        return;
      }
      if (res.destroyed) return;
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      if (res.destroyed) return;
      event(chunk({ content: word }, null));
    }
    event(chunk({}, 'stop'));
    if (body.stream_options?.include_usage && !(b.kind === 'reply' && b.omitUsage))
      event({ ...base, object: 'chat.completion.chunk', choices: [], usage: fullUsage });
    res.end('data: [DONE]\n\n');
  }

  private error(
    res: ServerResponse,
    status: number,
    message: string,
    param: string | null = null,
  ): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { message, type: 'invalid_request_error', param, code: null } }),
    );
  }
}
