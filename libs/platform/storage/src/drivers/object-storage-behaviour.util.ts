/* Shared behavioural suite: every driver must pass it (used by the *.spec/int-spec files only). */
import { Readable } from 'node:stream';
import {
  ObjectStorage,
  ObjectTooLargeError,
  RangeNotSatisfiableError,
} from '../object-storage.types';

export interface BehaviourHarness {
  storage: () => ObjectStorage;
  cdnUrl: string;
  /** Makes an object look older (local: utimes; S3: not possible, so the suite uses `before` in the future). */
  age?: (key: string, date: Date) => Promise<void>;
  /** Keys physically present, to prove aborted writes leave nothing behind. */
  rawKeys: () => Promise<string[]>;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function slowStream(total: number, chunk = 64 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const n = Math.min(chunk, total - sent);
      sent += n;
      this.push(Buffer.alloc(n, 7));
    },
  });
}

export function objectStorageBehaviour(h: BehaviourHarness): void {
  const s = () => h.storage();
  let n = 0;
  const fresh = (ext = 'bin') => `behaviour/${Date.now()}-${++n}/obj.${ext}`;

  it('puts a buffer and reads it back with its content type and size', async () => {
    const key = fresh('png');
    const stored = await s().put(key, Buffer.from('hello'), { contentType: 'image/png' });
    expect(stored).toMatchObject({ key, size: 5, contentType: 'image/png' });
    const got = await s().get(key);
    expect(got).toMatchObject({ key, size: 5, contentType: 'image/png' });
    expect((await readAll(got!.body)).toString()).toBe('hello');
    const st = await s().stat(key);
    expect(Number.isFinite(st?.lastModified?.getTime())).toBe(true);
  });

  it('stores a type it would not serve inline as application/octet-stream (decision 0128)', async () => {
    for (const [declared, kept] of [
      ['text/html', 'application/octet-stream'],
      ['image/svg+xml', 'application/octet-stream'],
      ['application/json', 'application/octet-stream'],
      ['text/plain', 'text/plain; charset=utf-8'],
      ['IMAGE/PNG; x=1', 'image/png'],
    ]) {
      const key = fresh();
      const stored = await s().put(key, Buffer.from('<script>alert(1)</script>'), {
        contentType: declared,
      });
      expect({ declared, stored: stored.contentType }).toEqual({ declared, stored: kept });
      expect({ declared, stat: (await s().stat(key))?.contentType }).toEqual({
        declared,
        stat: kept,
      });
    }
  });

  it('streams a body in and counts its size', async () => {
    const key = fresh();
    const stored = await s().put(key, slowStream(6 * 1024 * 1024), {
      contentType: 'application/octet-stream',
      maxBytes: 6 * 1024 * 1024,
    });
    expect(stored.size).toBe(6 * 1024 * 1024);
    expect((await s().stat(key))?.size).toBe(6 * 1024 * 1024);
  });

  it('refuses a stream over maxBytes while streaming and leaves nothing behind', async () => {
    const key = fresh();
    const before = await h.rawKeys();
    await expect(
      s().put(key, slowStream(6 * 1024 * 1024 + 1), {
        contentType: 'application/octet-stream',
        maxBytes: 6 * 1024 * 1024,
      }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await s().stat(key)).toBeUndefined();
    expect(await h.rawKeys()).toEqual(before);
  });

  it('refuses a buffer over maxBytes', async () => {
    const key = fresh();
    await expect(
      s().put(key, Buffer.alloc(11), { contentType: 'text/plain', maxBytes: 10 }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await s().stat(key)).toBeUndefined();
  });

  it('leaves nothing behind when the source stream fails mid-way', async () => {
    const key = fresh();
    const before = await h.rawKeys();
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent++ < 3) return this.push(Buffer.alloc(64 * 1024, 1));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(s().put(key, failing, { contentType: 'text/plain' })).rejects.toThrow(
      'client went away',
    );
    expect(await s().stat(key)).toBeUndefined();
    expect(await h.rawKeys()).toEqual(before);
  });

  it('serves byte ranges and refuses unsatisfiable ones', async () => {
    const key = fresh('txt');
    await s().put(key, Buffer.from('0123456789'), { contentType: 'text/plain' });
    const part = await s().get(key, { start: 2, end: 5 });
    expect(part?.range).toEqual({ start: 2, end: 5 });
    expect(part?.size).toBe(10);
    expect((await readAll(part!.body)).toString()).toBe('2345');
    const tail = await s().get(key, { start: 7 });
    expect(tail?.range).toEqual({ start: 7, end: 9 });
    expect((await readAll(tail!.body)).toString()).toBe('789');
    await expect(s().get(key, { start: 10 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('answers undefined for a missing object', async () => {
    expect(await s().get(fresh())).toBeUndefined();
    expect(await s().stat(fresh())).toBeUndefined();
  });

  it('overwrites an existing key', async () => {
    const key = fresh();
    await s().put(key, Buffer.from('one'), { contentType: 'image/png' });
    await s().put(key, Buffer.from('second'), { contentType: 'audio/wav' });
    const got = await s().get(key);
    expect(got?.contentType).toBe('audio/wav');
    expect((await readAll(got!.body)).toString()).toBe('second');
  });

  it('deletes keys, ignoring missing ones', async () => {
    const key = fresh();
    await s().put(key, Buffer.from('x'), { contentType: 'text/plain' });
    await s().delete([key, fresh()]);
    expect(await s().stat(key)).toBeUndefined();
  });

  it('deletes everything under a prefix and nothing else', async () => {
    const base = `outputs/ab/task-${Date.now()}`;
    const other = `outputs/ab/task-${Date.now()}x/0.png`;
    for (let i = 0; i < 3; i++) {
      await s().put(`${base}/${i}.png`, Buffer.from([i]), { contentType: 'image/png' });
    }
    await s().put(other, Buffer.from('keep'), { contentType: 'image/png' });
    expect(await s().deletePrefix(`${base}/`)).toBe(3);
    expect(await s().stat(`${base}/0.png`)).toBeUndefined();
    expect(await s().stat(other)).toBeDefined();
    expect(await s().deletePrefix(`${base}/`)).toBe(0);
  });

  it('lists objects under a prefix older than a time', async () => {
    const base = `uploads/acct-${Date.now()}`;
    const old = `${base}/2020-01-01/old.png`;
    const young = `${base}/2020-01-02/young.png`;
    await s().put(old, Buffer.from('o'), { contentType: 'image/png' });
    await s().put(young, Buffer.from('y'), { contentType: 'image/png' });
    const listed: string[] = [];
    if (h.age) {
      await h.age(old, new Date(Date.now() - 8 * 86_400_000));
      for await (const k of s().listOlderThan(`${base}/`, new Date(Date.now() - 7 * 86_400_000)))
        listed.push(k);
      expect(listed).toEqual([old]);
    } else {
      for await (const k of s().listOlderThan(`${base}/`, new Date(Date.now() + 60_000)))
        listed.push(k);
      expect(listed.sort()).toEqual([old, young]);
      const none: string[] = [];
      for await (const k of s().listOlderThan(`${base}/`, new Date(Date.now() - 60_000)))
        none.push(k);
      expect(none).toEqual([]);
    }
  });

  it('refuses keys that could escape or collide with internals', async () => {
    for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'a//b', '.meta/x', 'a/.tmp/x', '']) {
      await expect(s().put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
        /invalid object key/,
      );
    }
  });

  it('hands out CDN URLs and recognises only its own', () => {
    const key = 'uploads/a/2024-01-01/x.png';
    const url = s().urlFor(key);
    expect(url).toBe(`${h.cdnUrl}/${key}`);
    expect(s().keyFromUrl(url)).toBe(key);
    expect(s().keyFromUrl(`${url}?v=1`)).toBe(key);
    expect(s().keyFromUrl(`https://elsewhere.example/cdn/${key}`)).toBeUndefined();
    expect(s().keyFromUrl(`${h.cdnUrl}/../secret`)).toBeUndefined();
    expect(s().keyFromUrl(`${h.cdnUrl}x/a.png`)).toBeUndefined();
    expect(s().keyFromUrl(`${h.cdnUrl}/a%2F..%2Fb`)).toBeUndefined();
    expect(s().keyFromUrl('not a url')).toBeUndefined();
  });

  it('answers its readiness check', async () => {
    await expect(s().check()).resolves.toBeUndefined();
  });
}
