import { ChatChunk, ChatRequest } from './chat-backend.util';
import { countPromptTokens, countTokens, splitTokens } from './chat-tokens.util';
import { LocalChatBackend, localReply } from './local-chat.backend';

const ctx = () => ({ signal: new AbortController().signal, upstreamModel: 'local-chat' });
const request = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: 'user', content }],
  maxTokens: 4096,
  ...extra,
});

describe('local chat tokenizer', () => {
  it('counts words and punctuation, keeping the text', () => {
    expect(splitTokens('Hello, world!')).toEqual(['Hello', ',', ' world', '!']);
    expect(countTokens('  ')).toBe(0);
    expect(splitTokens('héllo  wörld').join('')).toBe('héllo  wörld');
    expect(countPromptTokens([{ role: 'user', content: 'Hi there' }])).toBe(3 + 2 + 3);
  });
});

describe('LocalChatBackend', () => {
  const backend = new LocalChatBackend();

  it('answers deterministically, echoing the last user message', async () => {
    const a = await backend.complete(request('Is it raining?'), ctx());
    const b = await backend.complete(request('Is it raining?'), ctx());
    expect(a).toEqual(b);
    expect(a.content).toMatch(/^You asked: "Is it raining\?"\. That is 3 words/);
    expect(a.finishReason).toBe('stop');
    expect(a.usage).toEqual({ promptTokens: 3 + 4 + 3, completionTokens: countTokens(a.content) });
    expect(localReply([{ role: 'user', content: 'hello bot' }])).toMatch(/^Hello!/);
  });

  it('honours max_tokens and stop', async () => {
    const short = await backend.complete(request('a b c', { maxTokens: 2 }), ctx());
    expect(short).toMatchObject({
      content: 'You said',
      finishReason: 'length',
      usage: { completionTokens: 2 },
    });
    const stopped = await backend.complete(request('a b c', { stop: ['"'] }), ctx());
    expect(stopped).toMatchObject({ content: 'You said:', finishReason: 'stop' });
  });

  it('streams the same text token by token, then finish and usage', async () => {
    const whole = await backend.complete(request('stream me'), ctx());
    const chunks: ChatChunk[] = [];
    for await (const chunk of backend.stream(request('stream me'), ctx())) chunks.push(chunk);
    const deltas = chunks.filter((c) => c.kind === 'delta');
    expect(deltas.length).toBe(whole.usage.completionTokens);
    expect(deltas.map((c) => (c.kind === 'delta' ? c.content : '')).join('')).toBe(whole.content);
    expect(chunks.slice(-2)).toEqual([
      { kind: 'finish', finishReason: 'stop' },
      { kind: 'usage', usage: whole.usage },
    ]);
  });

  it('stops streaming when the signal fires', async () => {
    const controller = new AbortController();
    const seen: ChatChunk[] = [];
    await expect(
      (async () => {
        for await (const chunk of backend.stream(request('x y z'), {
          signal: controller.signal,
          upstreamModel: 'l',
        })) {
          seen.push(chunk);
          controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen).toHaveLength(1);
  });
});
