import { Global, Module } from '@nestjs/common';
import { ProvidersConfig, TaskConfig } from '@genhub/config';
import { ModelCatalogue } from './catalogue/model-catalogue.service';
import type { ProvidersFile } from './config/providers-file.types';
import { readProvidersFile } from './config/providers-file.util';
import { localProvider } from './local/local-provider.util';
import { AdapterRegistry } from './registry/adapter-registry.service';
import { upstreamProvider } from './upstream/upstream-provider.util';

/**
 * Builds the catalogue and the adapter registry once per process from
 * configuration: the built-in `local` provider and, when given, the parsed
 * providers file.
 */
export function buildProviders(
  config: Pick<TaskConfig, 'ENABLE_SIMULATOR' | 'ENABLE_LOCAL_MODELS'>,
  file?: ProvidersFile,
): {
  catalogue: ModelCatalogue;
  registry: AdapterRegistry;
} {
  const providers = [
    localProvider({
      enableSimulator: config.ENABLE_SIMULATOR,
      enableLocalModels: config.ENABLE_LOCAL_MODELS,
    }),
  ];
  if (file) providers.push(upstreamProvider(file));
  const registry = new AdapterRegistry();
  for (const p of providers) p.register(registry);
  const catalogue = new ModelCatalogue(providers.flatMap((p) => p.models));
  for (const model of catalogue.all())
    for (const routes of Object.values(model.channels))
      for (const route of routes ?? [])
        if (!registry.has(route.adapter))
          throw new Error(`${model.slug}: no adapter registered under ${route.adapter}`);
  return { catalogue, registry };
}

/** The parsed providers file of this process, or undefined when PROVIDERS_FILE is unset. */
export const PROVIDERS_FILE_CONTENTS = Symbol('PROVIDERS_FILE_CONTENTS');

/** Reads PROVIDERS_FILE (if set) at start-up; a bad file stops the app with a one-line error. */
export function readConfiguredProvidersFile(providers: ProvidersConfig): ProvidersFile | undefined {
  return providers.PROVIDERS_FILE
    ? readProvidersFile(providers.PROVIDERS_FILE, providers.environment)
    : undefined;
}

const BUILT = Symbol('PROVIDERS_BUILT');

@Global()
@Module({
  providers: [
    {
      provide: PROVIDERS_FILE_CONTENTS,
      inject: [ProvidersConfig],
      useFactory: readConfiguredProvidersFile,
    },
    { provide: BUILT, inject: [TaskConfig, PROVIDERS_FILE_CONTENTS], useFactory: buildProviders },
    {
      provide: ModelCatalogue,
      inject: [BUILT],
      useFactory: (b: ReturnType<typeof buildProviders>) => b.catalogue,
    },
    {
      provide: AdapterRegistry,
      inject: [BUILT],
      useFactory: (b: ReturnType<typeof buildProviders>) => b.registry,
    },
  ],
  exports: [ModelCatalogue, AdapterRegistry, PROVIDERS_FILE_CONTENTS],
})
export class ProvidersModule {}
