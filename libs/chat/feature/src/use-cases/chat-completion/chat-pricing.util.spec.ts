import type { ChatCompletionRequestDto } from '@genhub/contracts/server';
import type { ChatRoute } from '@genhub/providers';
import {
  DEFAULT_CHAT_MAX_TOKENS,
  reservationBoundUnits,
  tokenCostUnits,
  toChatRequest,
} from './chat-pricing.util';

const route = (input: number, output: number): ChatRoute => ({
  backend: 'local.chat',
  upstreamModel: 'm',
  inputPriceUnitsPer1M: input,
  outputPriceUnitsPer1M: output,
});

describe('chat pricing', () => {
  it('charges tokens at the route’s prices, rounded up to a whole micro-unit', () => {
    expect(
      tokenCostUnits(route(1_000_000, 2_000_000), { promptTokens: 3, completionTokens: 2 }),
    ).toBe(7);
    expect(tokenCostUnits(route(1, 1), { promptTokens: 1, completionTokens: 0 })).toBe(1);
    expect(tokenCostUnits(route(0, 0), { promptTokens: 10, completionTokens: 10 })).toBe(0);
  });

  it('reserves the most the completion can cost on any route it may fall over to', () => {
    const request = toChatRequest({
      model: 'local/chat',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 10,
    } as ChatCompletionRequestDto);
    // Prompt bound: 8 + (8 + 2 bytes) = 18 tokens; completion bound: 10.
    const cheap = route(1_000_000, 1_000_000);
    const dear = route(2_000_000, 3_000_000);
    expect(reservationBoundUnits([cheap], request)).toBe(28);
    expect(reservationBoundUnits([cheap, dear], request)).toBe(18 * 2 + 10 * 3);
  });

  it('takes max_completion_tokens over max_tokens, and caps an unlimited request', () => {
    const base = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };
    expect(
      toChatRequest({
        ...base,
        max_tokens: 5,
        max_completion_tokens: 7,
      } as ChatCompletionRequestDto).maxTokens,
    ).toBe(7);
    expect(toChatRequest(base as ChatCompletionRequestDto).maxTokens).toBe(DEFAULT_CHAT_MAX_TOKENS);
  });
});
