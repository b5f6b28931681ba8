import type { ChannelName } from '../contract/model-adapter.types';
import type { ChatBackend } from './chat-backend.util';

/** One way to serve a chat model: which backend, which upstream model, at what price. */
export interface ChatRoute {
  /** Key of the backend in the catalogue's backend map, e.g. `local.chat`, `openai`. */
  backend: string;
  upstreamModel: string;
  /** Micro-units of the account's currency per million prompt / completion tokens. */
  inputPriceUnitsPer1M: number;
  outputPriceUnitsPer1M: number;
}

export interface ChatModelDefinition {
  /** What clients pass as `model`, e.g. `local/chat`, `openai/gpt-4o-mini`. */
  id: string;
  name: string;
  /** `owned_by` of `GET /v1/models`. */
  ownedBy: string;
  defaultChannel: ChannelName;
  /** Routes per channel, tried in order on transient failures. */
  channels: Partial<Record<ChannelName, ChatRoute[]>>;
}

/** A set of chat models and the backends their routes name. */
export interface ChatModelSet {
  models: ChatModelDefinition[];
  backends: Record<string, ChatBackend>;
}

/** `created` of every listed model (a fixed date: the listing must be stable). */
export const CHAT_MODELS_CREATED = 1_735_689_600; // 2025-01-01T00:00:00Z

/** Every chat model the gateway serves, by id, with its backends. Immutable once built. */
export class ChatCatalogue {
  private readonly byId = new Map<string, ChatModelDefinition>();
  private readonly backends = new Map<string, ChatBackend>();

  constructor(sets: ChatModelSet[]) {
    for (const set of sets)
      for (const [key, backend] of Object.entries(set.backends)) {
        if (this.backends.has(key)) throw new Error(`duplicate chat backend ${key}`);
        this.backends.set(key, backend);
      }
    for (const model of sets.flatMap((s) => s.models)) {
      if (this.byId.has(model.id)) throw new Error(`duplicate chat model ${model.id}`);
      if (!model.channels[model.defaultChannel]?.length)
        throw new Error(`${model.id}: default channel has no route`);
      for (const routes of Object.values(model.channels))
        for (const route of routes ?? [])
          if (!this.backends.has(route.backend))
            throw new Error(`${model.id}: no chat backend registered under ${route.backend}`);
      this.byId.set(model.id, model);
    }
  }

  find(id: string): ChatModelDefinition | undefined {
    return this.byId.get(id);
  }

  /** The backend of a route; the constructor guarantees it exists. */
  backend(route: ChatRoute): ChatBackend {
    return this.backends.get(route.backend) as ChatBackend;
  }

  all(): ChatModelDefinition[] {
    return [...this.byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}
