import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigModule, SecurityConfig, StorageConfig } from '@genhub/config';
import { ReadinessRegistry } from '@genhub/observability';
import { LocalDiskStorage } from './drivers/local-disk-storage.adapter';
import { OBJECT_STORAGE, ObjectStorage } from './object-storage.types';
import { StorageModule, createObjectStorage } from './storage.module';
import { S3Storage } from './drivers/s3-storage.adapter';
import { loadConfig } from '@genhub/config';

@Global()
@Module({ providers: [ReadinessRegistry], exports: [ReadinessRegistry] })
class FakeObservability {}

describe('StorageModule', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'genhub-storage-mod-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('provides the local-disk driver and a storage readiness check', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({
          pieces: [StorageConfig, SecurityConfig],
          env: { STORAGE_DIR: join(dir, 'objects'), CDN_URL: 'https://cdn.example.com/files/' },
        }),
        FakeObservability,
        StorageModule.forRoot(),
      ],
    }).compile();
    await moduleRef.init();
    const storage = moduleRef.get<ObjectStorage>(OBJECT_STORAGE);
    expect(storage).toBeInstanceOf(LocalDiskStorage);
    expect(storage.urlFor('a/b.png')).toBe('https://cdn.example.com/files/a/b.png');
    const ready = await moduleRef.get(ReadinessRegistry).run();
    expect(ready).toEqual({ ok: true, checks: { storage: 'ok' } });
    await moduleRef.close();
  });

  it('chooses the S3 driver when S3_ENDPOINT is set', () => {
    const config = loadConfig(StorageConfig, {
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'media',
      S3_FORCE_PATH_STYLE: 'true',
    });
    const storage = createObjectStorage(config);
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.urlFor('a.png')).toBe('http://127.0.0.1:3000/cdn/a.png');
    (storage as S3Storage).client.destroy();
  });
});
