import { DynamicModule, Global, Module } from '@nestjs/common';
import { SecurityConfig, trustedCas } from '@genhub/config';
import { MediaFetcher, OBJECT_STORAGE } from '@genhub/storage';
import { InMemoryObjectStorage } from './in-memory-object-storage.adapter';

/**
 * StorageModule's providers over an InMemoryObjectStorage: OBJECT_STORAGE and
 * the real guarded MediaFetcher (it honours ALLOW_PRIVATE_NETWORK_URLS, so
 * tests against 127.0.0.1 servers set it). Needs SecurityConfig registered.
 */
@Global()
@Module({})
export class InMemoryStorageModule {
  static with(storage: InMemoryObjectStorage): DynamicModule {
    return {
      module: InMemoryStorageModule,
      providers: [
        { provide: OBJECT_STORAGE, useValue: storage },
        {
          provide: MediaFetcher,
          inject: [SecurityConfig],
          useFactory: (security: SecurityConfig) =>
            new MediaFetcher({
              storage,
              allowPrivateNetwork: security.ALLOW_PRIVATE_NETWORK_URLS,
              trustedCas: trustedCas(security.OUTBOUND_TLS_CA),
            }),
        },
      ],
      exports: [OBJECT_STORAGE, MediaFetcher],
    };
  }
}
