import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { LocalDiskStorage } from './local-disk-storage.adapter';
import { objectStorageBehaviour } from './object-storage-behaviour.util';

const CDN = 'http://127.0.0.1:3000/cdn';

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else out.push(relative(root, full).split(sep).join('/'));
    }
  };
  await walk(root);
  return out.sort();
}

describe('LocalDiskStorage', () => {
  let root: string;
  let storage: LocalDiskStorage;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'genhub-storage-'));
    storage = new LocalDiskStorage(root, CDN);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  objectStorageBehaviour({
    storage: () => storage,
    cdnUrl: CDN,
    age: async (key, date) => utimes(join(root, key), date, date),
    // Every file under the root, temp and metadata included.
    rawKeys: () => listFiles(root),
  });

  it('keeps no temp files after writes and prunes empty folders on delete', async () => {
    await storage.put('x/y/z.txt', Buffer.from('1'), { contentType: 'text/plain' });
    await storage.delete(['x/y/z.txt']);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    await expect(readdir(join(root, 'x'))).rejects.toThrow();
  });

  it('derives the content type from the extension when no metadata exists', async () => {
    await storage.put('plain/a.webp', Buffer.from('1'), { contentType: 'image/webp' });
    await rm(join(root, '.meta', 'plain', 'a.webp.json'));
    expect((await storage.stat('plain/a.webp'))?.contentType).toBe('image/webp');
  });
});
