import { parseProvidersFile } from '../config/providers-file.util';
import { ChatCatalogue } from './chat-catalogue.service';
import { chatModelsFromFile } from './chat-models-from-file.util';
import { OpenAiChatBackend } from './openai-chat.backend';

const route = {
  upstream: 'openai',
  model: 'gpt-4o-mini',
  input_price_per_1m_tokens: 0.15,
  output_price_per_1m_tokens: 0.6,
};
const gpt = {
  id: 'openai/gpt-4o-mini',
  name: 'GPT-4o mini',
  default_channel: 'stable',
  channels: { stable: [route] },
};
const upstreams = {
  openai: {
    kind: 'openai',
    base_url: 'https://api.openai.com/v1',
    api_key_env: 'OPENAI_API_KEY',
    timeout_ms: 120000,
  },
  images: { kind: 'fal', base_url: 'https://queue.fal.run' },
};

const parse = (chat_models: unknown[]) =>
  parseProvidersFile(JSON.stringify({ upstreams, chat_models }), 'providers.json', {
    OPENAI_API_KEY: 'sk-test',
  });

describe('chatModelsFromFile', () => {
  it('turns the parsed chat models into definitions and one backend per upstream', () => {
    const set = chatModelsFromFile(parse([gpt, { ...gpt, id: 'openai/other' }]));
    expect(set.models[0]).toEqual({
      id: 'openai/gpt-4o-mini',
      name: 'GPT-4o mini',
      ownedBy: 'openai',
      defaultChannel: 'stable',
      channels: {
        stable: [
          {
            backend: 'openai',
            upstreamModel: 'gpt-4o-mini',
            inputPriceUnitsPer1M: 150_000,
            outputPriceUnitsPer1M: 600_000,
          },
        ],
      },
    });
    expect(Object.keys(set.backends)).toEqual(['openai']);
    expect(set.backends.openai).toBeInstanceOf(OpenAiChatBackend);
    // The result builds a catalogue as is.
    expect(new ChatCatalogue([set]).find('openai/other')?.ownedBy).toBe('openai');
  });

  it('refuses a route on an upstream kind that cannot serve chat', () => {
    const file = parse([{ ...gpt, channels: { stable: [{ ...route, upstream: 'images' }] } }]);
    expect(() => chatModelsFromFile(file)).toThrow(/upstream images \(fal\) cannot serve chat/);
  });

  it('leaves unknown upstreams, channels and odd prices to the file parser', () => {
    expect(() =>
      parse([{ ...gpt, channels: { stable: [{ ...route, upstream: 'nope' }] } }]),
    ).toThrow(/nope/);
    expect(() => parse([{ ...gpt, channels: { turbo: [route] } }])).toThrow(/turbo/);
    expect(() =>
      parse([
        { ...gpt, channels: { stable: [{ ...route, input_price_per_1m_tokens: 0.0000001 }] } },
      ]),
    ).toThrow(/input_price_per_1m_tokens/);
  });
});
