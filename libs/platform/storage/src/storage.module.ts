import { DynamicModule, Global, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { SecurityConfig, StorageConfig, trustedCas } from '@genhub/config';
import { MediaFetcher } from './media/media-fetcher.service';
import { ReadinessRegistry } from '@genhub/observability';
import { LocalDiskStorage } from './drivers/local-disk-storage.adapter';
import { OBJECT_STORAGE, ObjectStorage } from './object-storage.types';
import { createS3Storage } from './drivers/s3-storage.factory';

/** Builds the configured driver: S3 when S3_ENDPOINT is set, local disk otherwise. */
export function createObjectStorage(config: StorageConfig): ObjectStorage {
  if (config.usesS3) return createS3Storage(config);
  return new LocalDiskStorage(config.STORAGE_DIR, config.cdnUrl);
}

@Injectable()
class StorageReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessRegistry,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  onModuleInit(): void {
    this.readiness.register('storage', () => this.storage.check());
  }
}

/**
 * Provides OBJECT_STORAGE (the driver StorageConfig chooses) to the whole app
 * and registers the `storage` readiness check. Needs ConfigModule (with
 * StorageConfig and SecurityConfig) and ObservabilityModule imported by the
 * app. Also provides MediaFetcher (media inputs of model runs).
 */
@Global()
@Module({})
export class StorageModule {
  static forRoot(): DynamicModule {
    return {
      module: StorageModule,
      providers: [
        { provide: OBJECT_STORAGE, inject: [StorageConfig], useFactory: createObjectStorage },
        {
          provide: MediaFetcher,
          inject: [OBJECT_STORAGE, SecurityConfig],
          useFactory: (storage: ObjectStorage, security: SecurityConfig) =>
            new MediaFetcher({
              storage,
              allowPrivateNetwork: security.ALLOW_PRIVATE_NETWORK_URLS,
              trustedCas: trustedCas(security.OUTBOUND_TLS_CA),
            }),
        },
        StorageReadiness,
      ],
      exports: [OBJECT_STORAGE, MediaFetcher],
    };
  }
}
