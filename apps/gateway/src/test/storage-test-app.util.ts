/* Test helper: a gateway slice (config + storage + given controllers) on Fastify, local-disk storage in a temp dir. */
import { Global, Module, Provider, Type } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigModule, PepperConfig, SecurityConfig, StorageConfig } from '@genhub/config';
import { ReadinessRegistry } from '@genhub/observability';
import { OBJECT_STORAGE, ObjectStorage, StorageModule } from '@genhub/storage';

@Global()
@Module({ providers: [ReadinessRegistry], exports: [ReadinessRegistry] })
class TestObservability {}

export interface StorageTestApp {
  app: NestFastifyApplication;
  storage: ObjectStorage;
  dir: string;
  close(): Promise<void>;
}

export async function createStorageTestApp(options: {
  controllers: Type[];
  providers?: Provider[];
  configure?: (app: NestFastifyApplication) => Promise<void> | void;
}): Promise<StorageTestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'genhub-gw-storage-'));
  const moduleRef = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot({
        pieces: [StorageConfig, SecurityConfig, PepperConfig],
        env: {
          STORAGE_DIR: join(dir, 'objects'),
          PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
          API_KEY_PEPPER: 'storage-test-app-pepper',
        },
      }),
      TestObservability,
      StorageModule.forRoot(),
    ],
    controllers: options.controllers,
    providers: options.providers ?? [],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
  await options.configure?.(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    storage: app.get<ObjectStorage>(OBJECT_STORAGE),
    dir,
    close: async () => {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
