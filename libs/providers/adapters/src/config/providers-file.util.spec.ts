import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpeechToTextInputDto } from '@genhub/contracts/server';
import { buildProviders } from '../providers.module';
import { parseProvidersFile, readProvidersFile } from './providers-file.util';

const EXAMPLE = join(__dirname, '../../../../../docs/providers.example.json');
const ENV = { OPENAI_API_KEY: 'sk-1', REPLICATE_API_TOKEN: 'r8-1', FAL_KEY: 'fal-1' };

const minimal = () => ({
  upstreams: { openai: { kind: 'openai', base_url: 'http://127.0.0.1:9/v1/' } },
  models: [
    {
      slug: 'acme/img/text-to-image',
      name: 'Img',
      category: 'image',
      input: 'text-to-image',
      channels: { stable: [{ upstream: 'openai', model: 'm', price: 0.04 }] },
    },
  ],
});

function problem(
  edit: (f: ReturnType<typeof minimal> & Record<string, unknown>) => void,
  env = {},
): string {
  const file = minimal() as ReturnType<typeof minimal> & Record<string, unknown>;
  edit(file);
  try {
    parseProvidersFile(JSON.stringify(file), 'p.json', env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('providers file', () => {
  it('reads the documented example: upstreams with keys from the environment, models, chat models', () => {
    const file = readProvidersFile(EXAMPLE, ENV);
    expect(file.upstreams.map((u) => [u.name, u.kind, u.apiKey, u.timeoutMs])).toEqual([
      ['openai', 'openai', 'sk-1', 120_000],
      ['replicate', 'replicate', 'r8-1', 120_000],
      ['fal', 'fal', 'fal-1', 120_000],
    ]);
    const image = file.models[0];
    expect(image).toMatchObject({
      slug: 'openai/gpt-image-1/text-to-image',
      input: 'text-to-image',
      timeLimitMs: 300_000,
      defaultChannel: 'stable',
    });
    expect(image.channels.stable).toEqual([
      { upstream: 'openai', model: 'gpt-image-1', priceUnits: 40_000 },
      { upstream: 'fal', model: 'fal-ai/flux/dev', priceUnits: 50_000 },
    ]);
    expect(file.models[2].defaultChannel).toBe('stable');
    expect(file.chatModels).toEqual([
      {
        id: 'openai/gpt-4o-mini',
        name: 'GPT-4o mini',
        defaultChannel: 'stable',
        channels: {
          stable: [
            {
              upstream: 'openai',
              model: 'gpt-4o-mini',
              inputPricePer1mTokensUnits: 150_000,
              outputPricePer1mTokensUnits: 600_000,
            },
          ],
        },
      },
    ]);
  });

  it('buildProviders: models in the catalogue, one adapter per upstream, routes keyed by upstream', () => {
    const { catalogue, registry } = buildProviders(
      { ENABLE_SIMULATOR: true, ENABLE_LOCAL_MODELS: false },
      readProvidersFile(EXAMPLE, ENV),
    );
    expect(registry.keys().sort()).toEqual(['fal', 'local.simulator', 'openai', 'replicate']);
    const stt = catalogue.find('openai/whisper-1/speech-to-text');
    expect(stt?.inputSchema).toBe(SpeechToTextInputDto);
    expect(stt?.channels.stable).toEqual([
      { adapter: 'openai', upstreamModel: 'whisper-1', priceUnits: 6000, kind: 'speech-to-text' },
    ]);
    expect(
      catalogue.list({ provider: 'openai' }).find((e) => e.id === 'openai/gpt-image-1')?.pricing,
    ).toEqual({ stable: 0.04, official: 0.05 });
  });

  it('trims the base URL and leaves the key unset when the file names no variable', () => {
    const file = parseProvidersFile(JSON.stringify(minimal()), 'p.json', {});
    expect(file.upstreams[0]).toEqual({
      name: 'openai',
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: undefined,
      timeoutMs: 120_000,
    });
  });

  it.each<[string, (f: ReturnType<typeof minimal> & Record<string, unknown>) => void, string]>([
    ['unknown top-level key', (f) => (f.extra = 1), '(top level) has an unknown key "extra"'],
    [
      'no upstreams',
      (f) => delete (f as Record<string, unknown>).upstreams,
      '(top level) is missing "upstreams"',
    ],
    [
      'unknown kind',
      (f) => ((f.upstreams.openai as Record<string, unknown>).kind = 'azure'),
      'upstreams.openai.kind must be one of openai, replicate, fal (got "azure")',
    ],
    [
      'bad base URL',
      (f) => (f.upstreams.openai.base_url = 'ftp://x'),
      'upstreams.openai.base_url must be an http(s) URL',
    ],
    [
      'unset key variable',
      (f) => ((f.upstreams.openai as Record<string, unknown>).api_key_env = 'NOPE_KEY'),
      'upstreams.openai.api_key_env names NOPE_KEY, which is not set',
    ],
    [
      'bad time-out',
      (f) => ((f.upstreams.openai as Record<string, unknown>).timeout_ms = 5),
      'upstreams.openai.timeout_ms must be an integer from 100 to 3600000',
    ],
    [
      'bad slug',
      (f) => (f.models[0].slug = 'Acme/img'),
      'models[0].slug must be {provider}/{model}/{run_type}',
    ],
    [
      'reserved provider',
      (f) => (f.models[0].slug = 'local/img/x'),
      'models[0].slug provider local is reserved',
    ],
    [
      'unknown input kind',
      (f) => (f.models[0].input = 'text-to-smell'),
      'models[0].input must be one of',
    ],
    [
      'unknown channel',
      (f) => ((f.models[0].channels as Record<string, unknown>).gold = []),
      'models[0].channels has an unknown key "gold"',
    ],
    [
      'empty channel',
      (f) => (f.models[0].channels.stable = []),
      'models[0].channels.stable needs at least one route',
    ],
    [
      'unknown upstream',
      (f) => (f.models[0].channels.stable[0].upstream = 'fal'),
      'models[0].channels.stable[0].upstream names an unknown upstream "fal"',
    ],
    [
      'negative price',
      (f) => (f.models[0].channels.stable[0].price = -1),
      'models[0].channels.stable[0].price must be a number ≥ 0',
    ],
    [
      'price below a micro-unit',
      (f) => (f.models[0].channels.stable[0].price = 0.0000001),
      'models[0].channels.stable[0].price amount has more than 6 decimals',
    ],
    [
      'default channel without routes',
      (f) => ((f.models[0] as Record<string, unknown>).default_channel = 'economy'),
      'models[0].default_channel economy has no routes',
    ],
    [
      'duplicate slug',
      (f) => f.models.push({ ...f.models[0] }),
      'models[1].slug duplicates "acme/img/text-to-image"',
    ],
    [
      'chat route without prices',
      (f) =>
        (f.chat_models = [
          { id: 'a/b', name: 'B', channels: { stable: [{ upstream: 'openai', model: 'b' }] } },
        ]),
      'chat_models[0].channels.stable[0] is missing "input_price_per_1m_tokens"',
    ],
  ])('%s → one line naming the place', (_name, edit, expected) => {
    const message = problem(edit);
    expect(message).toContain('Invalid providers file p.json: ');
    expect(message).toContain(expected);
    expect(message).not.toContain('\n');
  });

  it('a missing file or broken JSON names the file', () => {
    expect(() => readProvidersFile('/nonexistent/p.json', {})).toThrow(
      'Invalid providers file /nonexistent/p.json: cannot be read (ENOENT)',
    );
    expect(() => parseProvidersFile('{', 'p.json', {})).toThrow(
      /^Invalid providers file p.json: is not JSON/,
    );
    expect(readFileSync(EXAMPLE, 'utf8')).not.toMatch(/sk-|r8_/);
  });
});
