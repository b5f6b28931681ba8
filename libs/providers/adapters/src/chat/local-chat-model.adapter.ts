import { Channels } from '../contract/model-adapter.types';
import type { ChatModelSet, ChatRoute } from './chat-catalogue.service';
import { LocalChatBackend, LocalChatOptions } from './local-chat.backend';

export const LOCAL_CHAT_MODEL_ID = 'local/chat';
export const LOCAL_CHAT_BACKEND_KEY = 'local.chat';

/** 1 per million prompt tokens, 2 per million completion tokens: one micro-unit per prompt token. */
const localRoute: ChatRoute = {
  backend: LOCAL_CHAT_BACKEND_KEY,
  upstreamModel: 'local-chat',
  inputPriceUnitsPer1M: 1_000_000,
  outputPriceUnitsPer1M: 2_000_000,
};

/** The offline chat model, on every channel (ENABLE_LOCAL_CHAT). */
export function localChatModels(options: LocalChatOptions = { wordDelayMs: 10 }): ChatModelSet {
  return {
    models: [
      {
        id: LOCAL_CHAT_MODEL_ID,
        name: 'Local chat (offline)',
        ownedBy: 'genhub',
        defaultChannel: 'stable',
        channels: Object.fromEntries(Channels.map((c) => [c, [localRoute]])),
      },
    ],
    backends: { [LOCAL_CHAT_BACKEND_KEY]: new LocalChatBackend(options) },
  };
}
