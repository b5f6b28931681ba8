import { FakeOpenAiChat } from '@genhub/testing';
import { ChatBackendError, ChatChunk, ChatRequest } from './chat-backend.util';
import { ChatCatalogue } from './chat-catalogue.service';
import { completeOverRoutes, streamOverRoutes } from './chat-fallover.util';
import { OpenAiChatBackend } from './openai-chat.backend';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hi there' }], maxTokens: 50 };
const ctx = (signal = new AbortController().signal) => ({ signal, upstreamModel: 'up-model' });

describe('OpenAiChatBackend (fake OpenAI chat server)', () => {
  let fake: FakeOpenAiChat;
  let backend: OpenAiChatBackend;

  beforeAll(async () => {
    fake = await FakeOpenAiChat.start();
    backend = new OpenAiChatBackend({ baseUrl: fake.baseUrl, apiKey: 'sk-x', timeoutMs: 300 });
  });
  afterAll(() => fake.close());
  beforeEach(() => (fake.behaviour = { kind: 'reply' }));

  it('completes over JSON and reads the upstream usage', async () => {
    fake.enqueue({ kind: 'reply', content: 'hello', promptTokens: 7, completionTokens: 1 });
    expect(await backend.complete(request, ctx())).toEqual({
      content: 'hello',
      finishReason: 'stop',
      usage: { promptTokens: 7, completionTokens: 1 },
    });
    expect(fake.requests.at(-1)).toMatchObject({
      url: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-x' },
      body: { model: 'up-model', max_tokens: 50, messages: request.messages },
    });
  });

  it('streams over SSE, asking for usage; counts itself when the upstream sends none', async () => {
    fake.enqueue({ kind: 'reply', content: 'a b c', omitUsage: true });
    const chunks: ChatChunk[] = [];
    for await (const chunk of backend.stream(request, ctx())) chunks.push(chunk);
    expect(chunks).toEqual([
      { kind: 'delta', content: 'a' },
      { kind: 'delta', content: ' b' },
      { kind: 'delta', content: ' c' },
      { kind: 'finish', finishReason: 'stop' },
      { kind: 'usage', usage: { promptTokens: 3 + 2 + 3, completionTokens: 3 } },
    ]);
    expect(fake.requests.at(-1)?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('classifies failures', async () => {
    const failure = async () => {
      try {
        await backend.complete(request, ctx());
      } catch (error) {
        return error as ChatBackendError;
      }
      throw new Error('expected a failure');
    };
    fake.enqueue({ kind: 'status', status: 400, message: 'bad temperature', param: 'temperature' });
    expect(await failure()).toMatchObject({
      kind: 'invalid_request',
      message: 'bad temperature',
      param: 'temperature',
    });
    fake.enqueue({ kind: 'status', status: 401 });
    expect(await failure()).toMatchObject({ kind: 'upstream_auth', status: 401 });
    fake.enqueue({ kind: 'status', status: 429 });
    expect(await failure()).toMatchObject({ kind: 'transient', status: 429 });
    fake.enqueue({ kind: 'hang' });
    expect(await failure()).toMatchObject({ kind: 'transient', message: 'upstream time limit' });
    const dead = new OpenAiChatBackend({ baseUrl: 'http://127.0.0.1:1/v1', timeoutMs: 1000 });
    await expect(dead.complete(request, ctx())).rejects.toMatchObject({ kind: 'transient' });
  });

  it('falls over on transient failures only, and closes the upstream when the caller aborts', async () => {
    const other = new OpenAiChatBackend({ baseUrl: fake.baseUrl, timeoutMs: 1000 });
    const catalogue = new ChatCatalogue([
      {
        models: [],
        backends: { a: backend, b: other },
      },
    ]);
    const routes = ['a', 'b'].map((key) => ({
      backend: key,
      upstreamModel: `m-${key}`,
      inputPriceUnitsPer1M: 1,
      outputPriceUnitsPer1M: 1,
    }));
    fake.enqueue({ kind: 'status', status: 503 });
    const served = await completeOverRoutes(
      catalogue,
      routes,
      request,
      new AbortController().signal,
    );
    expect(served.route.backend).toBe('b');
    fake.enqueue({ kind: 'status', status: 400 });
    await expect(
      completeOverRoutes(catalogue, routes, request, new AbortController().signal),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
    });

    const controller = new AbortController();
    fake.enqueue({ kind: 'reply', content: 'w '.repeat(50).trim(), wordDelayMs: 20 });
    const opened = await streamOverRoutes(catalogue, routes.slice(1), request, controller.signal);
    const seen: ChatChunk[] = [];
    await expect(
      (async () => {
        for await (const chunk of opened.chunks) {
          seen.push(chunk);
          if (seen.length === 2) controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ kind: 'aborted' });
    const deadline = Date.now() + 2000;
    while (!fake.requests.at(-1)?.closedEarly && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(fake.requests.at(-1)?.closedEarly).toBe(true);
  });
});
