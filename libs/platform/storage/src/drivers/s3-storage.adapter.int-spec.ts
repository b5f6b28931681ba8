import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
const S3rver = require('s3rver');
import { S3Storage, S3StorageOptions } from './s3-storage.adapter';
import { objectStorageBehaviour } from './object-storage-behaviour.util';

const CDN = 'https://cdn.example.test/media';
const BUCKET = 'genhub-test';

describe('S3Storage (against s3rver)', () => {
  let dir: string;
  let server: { run(): Promise<AddressInfo>; close(): Promise<void> };
  let storage: S3Storage;
  let options: S3StorageOptions;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genhub-s3rver-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await server.run();
    options = {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket: BUCKET,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      cdnUrl: CDN,
    };
    storage = new S3Storage(options);
  });

  afterAll(async () => {
    storage?.client.destroy();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  objectStorageBehaviour({
    storage: () => storage,
    cdnUrl: CDN,
    // s3rver reports a file's mtime as LastModified.
    age: async (key, date) => {
      const parts = key.split('/');
      const name = parts.pop();
      await utimes(join(dir, BUCKET, ...parts, `${name}._S3rver_object`), date, date);
    },
    rawKeys: async () => {
      const out = await storage.client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
      return (out.Contents ?? []).map((o) => o.Key as string).sort();
    },
  });

  it('stores a streamed multipart body byte for byte (no aws-chunked framing)', async () => {
    const size = 11 * 1024 * 1024 + 123;
    const source = Buffer.alloc(size);
    for (let i = 0; i < size; i++) source[i] = i % 251;
    const key = 'multi/part.bin';
    await storage.put(key, Readable.from([source.subarray(0, 3e6), source.subarray(3e6)]), {
      contentType: 'application/octet-stream',
    });
    const got = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const c of got!.body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(source)).toBe(true);
  });

  /** The headers the bucket itself serves an object with (what a CDN in front of it passes on). */
  async function servedHeaders(key: string) {
    const out = await storage.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    await out.Body?.transformToByteArray();
    return {
      type: out.ContentType,
      disposition: out.ContentDisposition,
      cache: out.CacheControl,
    };
  }

  it('stores the headers the bucket serves: recognised types inline, others as attachments, a short cache', async () => {
    await storage.put('served/page.html', Buffer.from('<script>alert(1)</script>'), {
      contentType: 'text/html',
    });
    await storage.put('served/image.png', Buffer.from('png'), { contentType: 'image/png' });
    await storage.put('served/streamed.bin', Readable.from([Buffer.from('<svg onload=x>')]), {
      contentType: 'image/svg+xml',
    });
    expect(await servedHeaders('served/page.html')).toEqual({
      type: 'application/octet-stream',
      disposition: 'attachment',
      cache: 'public, max-age=300',
    });
    expect(await servedHeaders('served/image.png')).toEqual({
      type: 'image/png',
      disposition: undefined,
      cache: 'public, max-age=300',
    });
    expect(await servedHeaders('served/streamed.bin')).toEqual({
      type: 'application/octet-stream',
      disposition: 'attachment',
      cache: 'public, max-age=300',
    });
    // A server-side copy (a checked direct upload) replaces them the same way.
    await storage.copy('served/image.png', 'served/copied.png', 'image/png');
    expect(await servedHeaders('served/copied.png')).toEqual({
      type: 'image/png',
      disposition: undefined,
      cache: 'public, max-age=300',
    });
  });

  it('fails its readiness check when the bucket does not exist', async () => {
    const other = new S3Storage({ ...options, bucket: 'nope-bucket' });
    await expect(other.check()).rejects.toBeDefined();
    other.client.destroy();
  });
});
