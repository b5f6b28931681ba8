import { MODEL_INPUTS } from '@genhub/contracts/server';
import type { ProvidersFile } from '../config/providers-file.types';
import { ChannelName, ModelDefinition, ModelRoute } from '../contract/model-adapter.types';
import { AdapterRegistry } from '../registry/adapter-registry.service';
import { adapterFor } from './upstream-adapters.util';

/**
 * The models and adapters of a providers file: one adapter per upstream,
 * registered under the upstream's name (a route's `adapter`).
 */
export function upstreamProvider(file: ProvidersFile): {
  models: ModelDefinition[];
  register(registry: AdapterRegistry): void;
} {
  const models = file.models.map((m): ModelDefinition => {
    const [provider, model, runType] = m.slug.split('/');
    const channels: Partial<Record<ChannelName, ModelRoute[]>> = {};
    for (const [channel, routes] of Object.entries(m.channels))
      channels[channel as ChannelName] = (routes ?? []).map((r) => ({
        adapter: r.upstream,
        upstreamModel: r.model,
        priceUnits: r.priceUnits,
        kind: m.input,
      }));
    return {
      slug: m.slug,
      provider,
      model,
      runType,
      name: m.name,
      category: m.category,
      description: m.description,
      inputSchema: MODEL_INPUTS[m.input],
      defaultChannel: m.defaultChannel,
      channels,
      timeLimitMs: m.timeLimitMs,
    };
  });
  return {
    models,
    register(registry) {
      for (const upstream of file.upstreams) registry.register(upstream.name, adapterFor(upstream));
    },
  };
}
