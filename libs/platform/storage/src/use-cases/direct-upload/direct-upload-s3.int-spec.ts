import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const S3rver = require('s3rver');
import { PepperConfig } from '@genhub/config';
import { S3Storage } from '../../drivers/s3-storage.adapter';
import { MediaFetcher, MediaFetchError } from '../../media/media-fetcher.service';
import { InMemoryUploadQuota } from '../testing/in-memory-upload-quota';
import { IssueUploadTicketUseCase } from './issue-upload-ticket.use-case';
import { INCOMING_PREFIX } from './upload-ticket.util';

const BUCKET = 'genhub-direct';
const CDN = 'https://cdn.example.test/media';
/** A 1×1 PNG: the sniffer's PNG signature and a valid file. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const rfc3986 = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/**
 * What a SigV4-checking bucket (AWS S3, MinIO) computes for a presigned PUT
 * with the headers a client actually sends: whether the URL's signature
 * holds. (s3rver accepts SigV4 requests without checking them, so the
 * binding is proven here, by the algorithm, and the bytes by our own check.)
 */
function signatureHolds(
  presigned: string,
  sent: Record<string, string>,
  secret = 'S3RVER',
): boolean {
  const url = new URL(presigned);
  const q = url.searchParams;
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const headers: Record<string, string> = { host: url.host };
  for (const [name, value] of Object.entries(sent)) headers[name.toLowerCase()] = value.trim();
  const query = [...q.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonical = [
    'PUT',
    url.pathname,
    query,
    signedHeaders.map((name) => `${name}:${headers[name] ?? ''}\n`).join(''),
    signedHeaders.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const date = q.get('X-Amz-Date') as string;
  const scope = (q.get('X-Amz-Credential') as string).split('/').slice(1).join('/');
  const toSign = [
    'AWS4-HMAC-SHA256',
    date,
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  const [day, region, service] = scope.split('/');
  let key: Buffer = createHmac('sha256', `AWS4${secret}`).update(day).digest();
  for (const part of [region, service, 'aws4_request'])
    key = createHmac('sha256', key).update(part).digest();
  return createHmac('sha256', key).update(toSign).digest('hex') === q.get('X-Amz-Signature');
}

/**
 * Presigned direct uploads against a real S3-compatible server (s3rver): the
 * signature binds the size and the type, the bytes go straight to the bucket
 * under incoming/, and the file becomes usable only once checked.
 */
describe('direct uploads to S3 (s3rver)', () => {
  let dir: string;
  let server: { run(): Promise<AddressInfo>; close(): Promise<void> };
  let storage: S3Storage;
  let tickets: IssueUploadTicketUseCase;
  let fetcher: MediaFetcher;
  let endpoint: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genhub-direct-s3-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
    storage = new S3Storage({
      endpoint,
      region: 'us-east-1',
      bucket: BUCKET,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      cdnUrl: CDN,
    });
    tickets = new IssueUploadTicketUseCase(
      storage,
      Object.assign(new PepperConfig(), { API_KEY_PEPPER: 'direct-upload-test-pepper' }),
      new InMemoryUploadQuota(),
    );
    fetcher = new MediaFetcher({ storage, allowPrivateNetwork: true });
  });

  afterAll(async () => {
    await fetcher?.close();
    storage?.client.destroy();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ticketFor = (size: number, contentType = 'image/png') =>
    tickets.execute({
      accountId: 'acc-1',
      filename: 'cat.png',
      size,
      contentType,
      gatewayOrigin: 'http://unused',
    });
  const put = (url: string, headers: Record<string, string>, body: Buffer) =>
    fetch(url, { method: 'PUT', headers, body });

  it('takes the declared file straight into the bucket; it is usable once checked', async () => {
    const ticket = await ticketFor(PNG.length);
    // Straight to the bucket: the bytes never pass through the gateway.
    expect(new URL(ticket.upload.url).origin).toBe(endpoint);
    expect(ticket.upload.url).toContain(`/${BUCKET}/${INCOMING_PREFIX}uploads/acc-1/`);
    expect(ticket.upload.url).toContain('X-Amz-Signature=');
    const key = storage.keyFromUrl(ticket.download_url) as string;
    expect((await put(ticket.upload.url, ticket.upload.headers, PNG)).status).toBe(200);
    // Not usable (nor public) before the check:
    expect(await storage.stat(key)).toBeUndefined();
    const media = await fetcher.fetch(ticket.download_url, 'image');
    expect(media).toEqual({ data: PNG, contentType: 'image/png' });
    expect((await storage.stat(key))?.contentType).toBe('image/png');
    expect(await storage.stat(`${INCOMING_PREFIX}${key}`)).toBeUndefined();
  });

  it('signs the declared size, type and size metadata: a SigV4 bucket refuses any other', async () => {
    const ticket = await ticketFor(PNG.length);
    const sent = { ...ticket.upload.headers, 'Content-Length': String(PNG.length) };
    expect(new URL(ticket.upload.url).searchParams.get('X-Amz-SignedHeaders')).toBe(
      'content-length;content-type;host;x-amz-meta-declared-size',
    );
    expect(signatureHolds(ticket.upload.url, sent)).toBe(true);
    expect(
      signatureHolds(ticket.upload.url, { ...sent, 'Content-Length': String(PNG.length + 1) }),
    ).toBe(false);
    expect(signatureHolds(ticket.upload.url, { ...sent, 'Content-Type': 'image/gif' })).toBe(false);
    expect(signatureHolds(ticket.upload.url, { ...sent, 'x-amz-meta-declared-size': '1' })).toBe(
      false,
    );
    expect(signatureHolds(ticket.upload.url, sent, 'another-secret')).toBe(false);
  });

  it('removes a body of another size than declared, should the bucket take it', async () => {
    const ticket = await ticketFor(PNG.length + 10);
    // s3rver does not check SigV4, so it stores what a real bucket would refuse:
    expect((await put(ticket.upload.url, ticket.upload.headers, PNG)).status).toBe(200);
    await expect(fetcher.fetch(ticket.download_url, 'image')).rejects.toThrow(/does not exist/);
    const key = storage.keyFromUrl(ticket.download_url) as string;
    expect(await storage.stat(key)).toBeUndefined();
    expect(await storage.stat(`${INCOMING_PREFIX}${key}`)).toBeUndefined();
  });

  it('removes a file whose bytes lie about their type: its URL stays 404, a task using it fails', async () => {
    const lie = Buffer.from(
      'GIF89a definitely not a png, but the right length!!!'.padEnd(PNG.length, '.'),
    );
    const ticket = await ticketFor(lie.length);
    expect((await put(ticket.upload.url, ticket.upload.headers, lie)).status).toBe(200);
    await expect(fetcher.fetch(ticket.download_url, 'image')).rejects.toBeInstanceOf(
      MediaFetchError,
    );
    const key = storage.keyFromUrl(ticket.download_url) as string;
    expect(await storage.stat(key)).toBeUndefined();
    expect(await storage.stat(`${INCOMING_PREFIX}${key}`)).toBeUndefined();
  });

  it('a reused ticket cannot replace a checked file', async () => {
    const ticket = await ticketFor(PNG.length);
    await put(ticket.upload.url, ticket.upload.headers, PNG);
    await fetcher.fetch(ticket.download_url, 'image');
    const other = Buffer.from(PNG);
    other[PNG.length - 1] ^= 0xff;
    expect((await put(ticket.upload.url, ticket.upload.headers, other)).status).toBe(200);
    expect((await fetcher.fetch(ticket.download_url, 'image')).data).toEqual(PNG);
  });

  it('an expired presigned URL is refused by the bucket', async () => {
    const { url } = await storage.presignPut(`${INCOMING_PREFIX}uploads/acc-1/x/expired.png`, {
      contentType: 'image/png',
      contentLength: PNG.length,
      expiresInSeconds: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await put(url, { 'Content-Type': 'image/png' }, PNG)).status).toBe(403);
  });
});
