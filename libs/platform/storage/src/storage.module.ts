import { DynamicModule, Global, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { StorageConfig } from '@genhub/config';
import { ReadinessRegistry } from '@genhub/observability';
import { LocalDiskStorage } from './drivers/local-disk.storage';
import { OBJECT_STORAGE, ObjectStorage } from './object-storage';
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
 * StorageConfig) and ObservabilityModule imported by the app.
 */
@Global()
@Module({})
export class StorageModule {
  static forRoot(): DynamicModule {
    return {
      module: StorageModule,
      providers: [
        { provide: OBJECT_STORAGE, inject: [StorageConfig], useFactory: createObjectStorage },
        StorageReadiness,
      ],
      exports: [OBJECT_STORAGE],
    };
  }
}
