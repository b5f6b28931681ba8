import { ChatRequest, ChatRoute, ChatUsage, promptTokenBound } from '@genhub/providers';
import type { ChatCompletionRequestDto } from '@genhub/contracts/server';

/** Completion tokens when the client sets no limit: bounds the reservation (and the upstream call). */
export const DEFAULT_CHAT_MAX_TOKENS = 4096;

/** The validated body → what backends take. */
export function toChatRequest(body: ChatCompletionRequestDto): ChatRequest {
  return {
    messages: body.messages.map((m) => ({
      role: m.role,
      content: m.content,
      ...(m.name ? { name: m.name } : {}),
    })),
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_CHAT_MAX_TOKENS,
    temperature: body.temperature,
    topP: body.top_p,
    stop: body.stop,
    presencePenalty: body.presence_penalty,
    frequencyPenalty: body.frequency_penalty,
    seed: body.seed,
    user: body.user,
  };
}

/** Micro-units for some tokens at a route's prices, rounded up to a whole micro-unit. */
export function tokenCostUnits(route: ChatRoute, usage: ChatUsage): number {
  return Math.ceil(
    (usage.promptTokens * route.inputPriceUnitsPer1M +
      usage.completionTokens * route.outputPriceUnitsPer1M) /
      1_000_000,
  );
}

/**
 * What to reserve: the most the completion can cost on any route it may be
 * served by (fall-over changes the route): every prompt byte a token, plus
 * the full completion limit.
 */
export function reservationBoundUnits(routes: ChatRoute[], request: ChatRequest): number {
  const usage = {
    promptTokens: promptTokenBound(request.messages),
    completionTokens: request.maxTokens,
  };
  return Math.max(0, ...routes.map((route) => tokenCostUnits(route, usage)));
}
