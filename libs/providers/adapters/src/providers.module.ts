import { Global, Module } from '@nestjs/common';
import { TaskConfig } from '@genhub/config';
import { ModelCatalogue } from './catalogue/model-catalogue';
import { localProvider } from './local/local-provider';
import { AdapterRegistry } from './registry/adapter-registry';

/** Builds the catalogue and the adapter registry once per process from configuration. */
export function buildProviders(config: Pick<TaskConfig, 'ENABLE_SIMULATOR'>): {
  catalogue: ModelCatalogue;
  registry: AdapterRegistry;
} {
  const providers = [localProvider({ enableSimulator: config.ENABLE_SIMULATOR })];
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

const BUILT = Symbol('PROVIDERS_BUILT');

@Global()
@Module({
  providers: [
    { provide: BUILT, inject: [TaskConfig], useFactory: buildProviders },
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
  exports: [ModelCatalogue, AdapterRegistry],
})
export class ProvidersModule {}
