import { inputJsonSchema, type ModelEntryDto } from '@genhub/contracts/server';
import { ModelDefinition } from '../contract/model-adapter.types';

export interface CatalogueFilter {
  category?: string;
  provider?: string;
  /** Case-insensitive substring of the name, description or id. */
  search?: string;
}

/** A listing entry, extra fields included (docs/interface.md, "Model entry"). */
export type ModelEntry = ModelEntryDto;

/**
 * Every model the platform can run, looked up by slug. Immutable once built;
 * the hot path (submit) is two map look-ups.
 */
export class ModelCatalogue {
  private readonly bySlug = new Map<string, ModelDefinition>();
  private readonly providers = new Set<string>();

  constructor(definitions: ModelDefinition[]) {
    for (const definition of definitions) {
      if (this.bySlug.has(definition.slug))
        throw new Error(`duplicate model slug ${definition.slug}`);
      if (definition.slug !== `${definition.provider}/${definition.model}/${definition.runType}`)
        throw new Error(`model slug ${definition.slug} does not match its parts`);
      for (const [channel, routes] of Object.entries(definition.channels)) {
        if (!routes?.length) throw new Error(`${definition.slug}: channel ${channel} has no route`);
      }
      if (!definition.channels[definition.defaultChannel])
        throw new Error(`${definition.slug}: default channel has no route`);
      this.bySlug.set(definition.slug, definition);
      this.providers.add(definition.provider);
    }
  }

  find(slug: string): ModelDefinition | undefined {
    return this.bySlug.get(slug);
  }

  hasProvider(provider: string): boolean {
    return this.providers.has(provider);
  }

  all(): ModelDefinition[] {
    return [...this.bySlug.values()];
  }

  /** One entry per `<provider>/<model>`, its run types merged. */
  list(filter: CatalogueFilter = {}): ModelEntry[] {
    const search = filter.search?.trim().toLowerCase();
    const entries = new Map<string, ModelEntry>();
    for (const d of this.bySlug.values()) {
      if (filter.category && d.category !== filter.category) continue;
      if (filter.provider && d.provider !== filter.provider) continue;
      const id = `${d.provider}/${d.model}`;
      if (
        search &&
        !d.name.toLowerCase().includes(search) &&
        !d.description.toLowerCase().includes(search) &&
        !id.toLowerCase().includes(search)
      )
        continue;
      let entry = entries.get(id);
      if (!entry) {
        entry = {
          id,
          name: d.name,
          provider: d.provider,
          category: d.category,
          description: d.description,
          run_types: [],
          pricing: {},
          input_schemas: {},
        };
        entries.set(id, entry);
      }
      entry.run_types.push(d.runType);
      const schema = inputJsonSchema(d.inputSchema);
      if (schema) entry.input_schemas[d.runType] = schema;
      for (const [channel, routes] of Object.entries(d.channels)) {
        if (routes?.[0] && entry.pricing[channel] === undefined)
          entry.pricing[channel] = routes[0].priceUnits / 1_000_000;
      }
    }
    return [...entries.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}
