import type { ProvidersFile, UpstreamSettings } from '../config/providers-file.types';
import type { ChatBackend } from './chat-backend.util';
import type { ChatModelDefinition, ChatModelSet } from './chat-catalogue.service';
import { OpenAiChatBackend } from './openai-chat.backend';

/** Chat backends by upstream kind; `openai` speaks the OpenAI chat-completions wire format. */
const CHAT_BACKEND_KINDS: Partial<
  Record<UpstreamSettings['kind'], (u: UpstreamSettings) => ChatBackend>
> = {
  openai: (u) =>
    new OpenAiChatBackend({ baseUrl: u.baseUrl, apiKey: u.apiKey, timeoutMs: u.timeoutMs }),
};

/**
 * The parsed providers file's `chat_models` (already checked: known upstreams,
 * channels, prices in micro-units) → chat model definitions and one backend per
 * used upstream, keyed by upstream name. Throws when a route names an upstream
 * whose kind cannot serve chat: a bad file must stop the process at start-up.
 */
export function chatModelsFromFile(
  file: Pick<ProvidersFile, 'upstreams' | 'chatModels'>,
): ChatModelSet {
  const upstreams = new Map(file.upstreams.map((u) => [u.name, u]));
  const backends: Record<string, ChatBackend> = {};
  const backendFor = (name: string, modelId: string): string => {
    if (backends[name]) return name;
    const upstream = upstreams.get(name);
    if (!upstream) throw new Error(`chat model ${modelId}: unknown upstream ${name}`);
    const make = CHAT_BACKEND_KINDS[upstream.kind];
    if (!make)
      throw new Error(
        `chat model ${modelId}: upstream ${name} (${upstream.kind}) cannot serve chat`,
      );
    backends[name] = make(upstream);
    return name;
  };

  const models = file.chatModels.map((m): ChatModelDefinition => ({
    id: m.id,
    name: m.name,
    ownedBy: m.id.includes('/') ? m.id.split('/')[0] : 'genhub',
    defaultChannel: m.defaultChannel,
    channels: Object.fromEntries(
      Object.entries(m.channels).map(([channel, routes]) => [
        channel,
        (routes ?? []).map((r) => ({
          backend: backendFor(r.upstream, m.id),
          upstreamModel: r.model,
          inputPriceUnitsPer1M: r.inputPricePer1mTokensUnits,
          outputPriceUnitsPer1M: r.outputPricePer1mTokensUnits,
        })),
      ]),
    ),
  }));
  return { models, backends };
}
