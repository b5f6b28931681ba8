import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskStorage } from '../../drivers/local-disk-storage.adapter';
import { InMemoryUploadQuota } from '../testing/in-memory-upload-quota';
import { SweepExpiredUploadsUseCase } from './sweep-expired-uploads.use-case';

const DAY = 86_400_000;

describe('SweepExpiredUploadsUseCase', () => {
  let dir: string;
  let storage: LocalDiskStorage;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genhub-sweep-'));
    storage = new LocalDiskStorage(dir, 'http://127.0.0.1:3000/cdn');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const age = (key: string, days: number) => {
    const t = new Date(Date.now() - days * DAY);
    return utimes(join(dir, key), t, t);
  };

  it('deletes uploads older than 7 days and keeps younger uploads and outputs', async () => {
    const keys = {
      old: 'uploads/a/2024-01-01/old.png',
      justOld: 'uploads/b/2024-01-02/just-old.png',
      young: 'uploads/a/2024-01-08/young.png',
      output: 'outputs/ab/task/0.png',
    };
    for (const key of Object.values(keys))
      await storage.put(key, Buffer.from('x'), { contentType: 'image/png' });
    await age(keys.old, 30);
    await age(keys.justOld, 7.01);
    await age(keys.young, 6.9);
    await age(keys.output, 30);

    expect(await new SweepExpiredUploadsUseCase(storage, new InMemoryUploadQuota()).execute()).toBe(
      2,
    );
    expect(await storage.stat(keys.old)).toBeUndefined();
    expect(await storage.stat(keys.justOld)).toBeUndefined();
    expect(await storage.stat(keys.young)).toBeDefined();
    expect(await storage.stat(keys.output)).toBeDefined();
    expect(await new SweepExpiredUploadsUseCase(storage, new InMemoryUploadQuota()).execute()).toBe(
      0,
    );
  });

  it('deletes in batches when there are many', async () => {
    for (let i = 0; i < 520; i++) {
      const key = `uploads/a/2024-01-01/${i}.png`;
      await storage.put(key, Buffer.from('x'), { contentType: 'image/png' });
      await age(key, 8);
    }
    expect(await new SweepExpiredUploadsUseCase(storage, new InMemoryUploadQuota()).execute()).toBe(
      520,
    );
  });
});
