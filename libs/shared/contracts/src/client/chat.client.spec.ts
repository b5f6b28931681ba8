import { chatCompletionStream, ChatStreamError } from './chat.client';
import { createGenhubClient, GenhubRequestError } from './genhub.client';

/** A fetch that answers with `body` sent in the given pieces (to split events across reads). */
function streamingFetch(status: number, pieces: string[], contentType = 'text/event-stream') {
  const requests: Request[] = [];
  const fetch = async (input: Request) => {
    requests.push(input);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(encoder.encode(piece));
        controller.close();
      },
    });
    return new Response(body, { status, headers: { 'content-type': contentType } });
  };
  return { fetch, requests };
}

const chunk = (content: string) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'local/chat',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

const request = { model: 'local/chat', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('chatCompletionStream', () => {
  it('posts stream: true and yields each chunk until [DONE], events split across reads', async () => {
    const { fetch, requests } = streamingFetch(200, [
      `data: ${chunk('Hel')}\n\ndata: ${chunk('lo')}`,
      `\n\ndata: [DONE]\n\n`,
    ]);
    const client = createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'sk-1', fetch });
    const chunks = await collect(chatCompletionStream(client, request));
    expect(chunks.map((c) => c.choices[0].delta.content).join('')).toBe('Hello');
    expect(await requests[0].json()).toEqual({ ...request, stream: true });
    expect(requests[0].headers.get('authorization')).toBe('Bearer sk-1');
  });

  it('throws the refusal before the stream as GenhubRequestError with the chat error body', async () => {
    const refusal = { error: { message: 'Insufficient balance', type: 'insufficient_quota' } };
    const { fetch } = streamingFetch(402, [JSON.stringify(refusal)], 'application/json');
    const client = createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'sk-1', fetch });
    const failure = await collect(chatCompletionStream(client, request)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GenhubRequestError);
    expect(failure).toMatchObject({ status: 402, body: refusal });
  });

  it('throws a failure after the stream started as ChatStreamError, after the chunks before it', async () => {
    const failure = { error: { message: 'Upstream provider error', type: 'api_error' } };
    const { fetch } = streamingFetch(200, [
      `data: ${chunk('Hel')}\n\n`,
      `data: ${JSON.stringify(failure)}\n\n`,
    ]);
    const client = createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'sk-1', fetch });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of chatCompletionStream(client, request))
        seen.push(c.choices[0].delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['Hel']);
    expect(error).toBeInstanceOf(ChatStreamError);
    expect((error as ChatStreamError).message).toBe('Upstream provider error');
  });

  it('refuses a stream that ends without [DONE] (a cut connection is not a finished answer)', async () => {
    const { fetch } = streamingFetch(200, [`data: ${chunk('Hel')}\n\n`]);
    const client = createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'sk-1', fetch });
    await expect(collect(chatCompletionStream(client, request))).rejects.toThrow(
      'the chat stream ended before [DONE]',
    );
  });
});
