import { Channels, ModelDefinition, ModelRoute } from '../contract/model-adapter';
import { AdapterRegistry } from '../registry/adapter-registry';
import { SimulatorAdapter } from './simulator.adapter';
import { SimulatorInputDto } from './simulator-input.dto';

export const LOCAL_PROVIDER = 'local';
export const SIMULATOR_SLUG = 'local/simulator/test';
export const SIMULATOR_ADAPTER_KEY = 'local.simulator';
/** 0.001 of the account's currency per task. */
export const SIMULATOR_PRICE_UNITS = 1000;

const simulatorRoute: ModelRoute = {
  adapter: SIMULATOR_ADAPTER_KEY,
  upstreamModel: 'simulator',
  priceUnits: SIMULATOR_PRICE_UNITS,
};

export const SIMULATOR_MODEL: ModelDefinition = {
  slug: SIMULATOR_SLUG,
  provider: LOCAL_PROVIDER,
  model: 'simulator',
  runType: 'test',
  name: 'Simulator',
  category: 'test',
  description:
    'Built-in test model: waits duration_ms, fails with fail_code, produces num_outputs PNG images.',
  inputSchema: SimulatorInputDto,
  defaultChannel: 'stable',
  channels: Object.fromEntries(Channels.map((c) => [c, [simulatorRoute]])),
  // duration_ms may be 10 minutes; the limit leaves room for the outputs.
  timeLimitMs: 660_000,
};

export interface LocalProviderOptions {
  enableSimulator: boolean;
}

/** The built-in `local` provider's models and adapters. */
export function localProvider(options: LocalProviderOptions): {
  models: ModelDefinition[];
  register(registry: AdapterRegistry): void;
} {
  return {
    models: options.enableSimulator ? [SIMULATOR_MODEL] : [],
    register(registry) {
      if (options.enableSimulator) registry.register(SIMULATOR_ADAPTER_KEY, new SimulatorAdapter());
    },
  };
}
