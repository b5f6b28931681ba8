import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigModule, StorageConfig } from '@genhub/config';
import { ReadinessRegistry } from '@genhub/observability';
import { LocalDiskStorage } from './drivers/local-disk.storage';
import { OBJECT_STORAGE, ObjectStorage } from './object-storage';
import { StorageModule } from './storage.module';

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
          pieces: [StorageConfig],
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
});
