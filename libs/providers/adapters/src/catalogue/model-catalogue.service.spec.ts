import { ModelDefinition } from '../contract/model-adapter.types';
import { SIMULATOR_MODEL, SIMULATOR_SLUG } from '../local/local-provider.util';
import { buildProviders } from '../providers.module';
import { ModelCatalogue } from './model-catalogue.service';

const route = { adapter: 'x', upstreamModel: 'x', priceUnits: 20_000 };
const flux = (runType: string): ModelDefinition => ({
  slug: `acme/flux/${runType}`,
  provider: 'acme',
  model: 'flux',
  runType,
  name: 'Flux',
  category: 'text-to-image',
  description: 'Sharp pictures from text',
  inputSchema: class {},
  defaultChannel: 'economy',
  channels: { economy: [route] },
  timeLimitMs: 1000,
});

describe('ModelCatalogue', () => {
  const catalogue = new ModelCatalogue([
    SIMULATOR_MODEL,
    flux('text-to-image'),
    flux('image-to-image'),
  ]);

  it('finds by slug and knows its providers', () => {
    expect(catalogue.find(SIMULATOR_SLUG)).toBe(SIMULATOR_MODEL);
    expect(catalogue.find('local/simulator/other')).toBeUndefined();
    expect(catalogue.hasProvider('local')).toBe(true);
    expect(catalogue.hasProvider('nope')).toBe(false);
  });

  it('lists one entry per provider/model with run types and prices', () => {
    const list = catalogue.list();
    expect(list.map((e) => e.id)).toEqual(['acme/flux', 'local/simulator']);
    expect(list[0]).toEqual({
      id: 'acme/flux',
      name: 'Flux',
      provider: 'acme',
      category: 'text-to-image',
      description: 'Sharp pictures from text',
      run_types: ['text-to-image', 'image-to-image'],
      pricing: { economy: 0.02 },
      // An input class the published document does not hold has no schema to give.
      input_schemas: {},
    });
    expect(list[1]).toMatchObject({
      category: 'test',
      pricing: { economy: 0.001, stable: 0.001, official: 0.001 },
    });
  });

  it('gives each run type its input schema from the published document, references resolved', () => {
    const simulator = catalogue.list({ category: 'test' })[0];
    const schema = simulator.input_schemas.test as {
      type: string;
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema).toMatchObject({
      type: 'object',
      required: ['prompt'],
      additionalProperties: false,
    });
    expect(schema.properties.prompt).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 10000,
    });
    expect(schema.properties.duration_ms).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 600000,
    });
    expect(schema.properties.channel).toMatchObject({ type: 'string' });
    expect(JSON.stringify(schema)).not.toContain('$ref');
  });

  it('filters by category, provider and search (case-insensitive)', () => {
    expect(catalogue.list({ category: 'test' }).map((e) => e.id)).toEqual(['local/simulator']);
    expect(catalogue.list({ provider: 'acme' }).map((e) => e.id)).toEqual(['acme/flux']);
    expect(catalogue.list({ search: 'PICTURES' }).map((e) => e.id)).toEqual(['acme/flux']);
    expect(catalogue.list({ search: 'simul' }).map((e) => e.id)).toEqual(['local/simulator']);
    expect(catalogue.list({ provider: 'acme', category: 'test' })).toEqual([]);
  });

  it('refuses duplicate slugs and inconsistent entries', () => {
    expect(() => new ModelCatalogue([SIMULATOR_MODEL, SIMULATOR_MODEL])).toThrow(/duplicate/);
    expect(() => new ModelCatalogue([{ ...flux('a'), slug: 'acme/flux/b' }])).toThrow(/match/);
  });
});

describe('buildProviders', () => {
  it('ships the simulator unless ENABLE_SIMULATOR=false', () => {
    const on = buildProviders({ ENABLE_SIMULATOR: true, ENABLE_LOCAL_MODELS: false });
    expect(on.catalogue.find(SIMULATOR_SLUG)?.channels.stable?.[0].priceUnits).toBe(1000);
    expect(on.registry.has('local.simulator')).toBe(true);
    const off = buildProviders({ ENABLE_SIMULATOR: false, ENABLE_LOCAL_MODELS: false });
    expect(off.catalogue.find(SIMULATOR_SLUG)).toBeUndefined();
    expect(off.catalogue.hasProvider('local')).toBe(false);
  });

  it('ships the offline generators unless ENABLE_LOCAL_MODELS=false', () => {
    const slugs = [
      'local/image/text-to-image',
      'local/speech/text-to-speech',
      'local/video/image-to-video',
      'local/video/text-to-video',
    ];
    const on = buildProviders({ ENABLE_SIMULATOR: false, ENABLE_LOCAL_MODELS: true });
    expect(on.catalogue.all().map((m) => m.slug)).toEqual(slugs);
    expect(on.catalogue.list({ provider: 'local' }).map((e) => [e.id, e.run_types])).toEqual([
      ['local/image', ['text-to-image']],
      ['local/speech', ['text-to-speech']],
      ['local/video', ['image-to-video', 'text-to-video']],
    ]);
    expect(on.catalogue.find(slugs[0])?.channels.economy?.[0].priceUnits).toBe(2000);
    const off = buildProviders({ ENABLE_SIMULATOR: true, ENABLE_LOCAL_MODELS: false });
    for (const slug of slugs) expect(off.catalogue.find(slug)).toBeUndefined();
    expect(off.registry.keys()).toEqual(['local.simulator']);
  });
});
