import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createStorageTestApp, StorageTestApp } from '../test/storage-test-app.util';
import { CdnController } from './cdn.controller';

describe('GET /cdn/*', () => {
  let t: StorageTestApp;
  const body = Buffer.from('0123456789abcdefghij');
  const key = 'uploads/acct/2024-01-01/file.png';

  beforeAll(async () => {
    t = await createStorageTestApp({ controllers: [CdnController] });
    await t.storage.put(key, body, { contentType: 'image/png' });
  });
  afterAll(() => t.close());

  it('serves the object with type, length and short cache headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/cdn/${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe('20');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['etag']).toBeDefined();
    expect(res.headers['last-modified']).toBeDefined();
    expect(res.rawPayload.equals(body)).toBe(true);
  });

  it('the URL handed out by storage is the one served', async () => {
    const url = new URL(t.storage.urlFor(key));
    const res = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(res.statusCode).toBe(200);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await t.app.inject({ method: 'GET', url: `/cdn/${key}` });
    const res = await t.app.inject({
      method: 'GET',
      url: `/cdn/${key}`,
      headers: { 'if-none-match': first.headers['etag'] as string },
    });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
  });

  it.each([
    ['bytes=0-4', 'bytes 0-4/20', '01234'],
    ['bytes=15-', 'bytes 15-19/20', 'fghij'],
    ['bytes=-3', 'bytes 17-19/20', 'hij'],
    ['bytes=10-99', 'bytes 10-19/20', 'abcdefghij'],
  ])('serves %s as 206 %s', async (range, contentRange, expected) => {
    const res = await t.app.inject({ method: 'GET', url: `/cdn/${key}`, headers: { range } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(contentRange);
    expect(res.headers['content-length']).toBe(String(expected.length));
    expect(res.body).toBe(expected);
  });

  it('answers 416 to a range past the end', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/cdn/${key}`,
      headers: { range: 'bytes=20-' },
    });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */20');
  });

  it('serves HEAD with headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: `/cdn/${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('20');
    expect(res.rawPayload.length).toBe(0);
  });

  it.each(['/cdn/../package.json', '/cdn/%2e%2e/%2e%2e/package.json', '/cdn/../../../etc/passwd'])(
    'never serves a file outside the root for %s',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('"name"');
      expect(res.body).not.toContain('root:');
    },
  );

  it.each([
    '/cdn/uploads/acct/2024-01-01/missing.png',
    '/cdn/..%2F..%2Fpackage.json',
    '/cdn/.meta/uploads/acct/2024-01-01/file.png.json',
    '/cdn/',
  ])('answers 404 Not found for %s', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, message: 'Not found', data: null });
  });

  /** An object as an earlier release (or another writer) left it on disk: bytes and their declared type. */
  async function storedAsIs(objectKey: string, bytes: string, contentType: string) {
    const root = join(t.dir, 'objects');
    const file = join(root, objectKey);
    const sidecar = join(root, '.meta', `${objectKey}.json`);
    await mkdir(dirname(file), { recursive: true });
    await mkdir(dirname(sidecar), { recursive: true });
    await writeFile(file, bytes);
    await writeFile(sidecar, JSON.stringify({ contentType }));
  }

  it.each([
    ['text/html', 'page.html'],
    ['text/html; charset=utf-8', 'page.htm'],
    ['image/svg+xml', 'drawing.svg'],
    ['application/xhtml+xml', 'page.xhtml'],
    ['text/javascript', 'script.js'],
    ['application/json', 'data.json'],
  ])(
    'serves an object stored as %s as a sandboxed download, never inline on this origin',
    async (contentType, name) => {
      const objectKey = `outputs/acct/task/${name}`;
      await storedAsIs(objectKey, '<script>alert(document.domain)</script>', contentType);
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url: `/cdn/${objectKey}` });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/octet-stream');
        expect(res.headers['content-disposition']).toBe('attachment');
        expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    },
  );

  it.each([
    ['image/png', 'image/png'],
    ['audio/wav', 'audio/wav'],
    ['video/mp4', 'video/mp4'],
    ['text/plain', 'text/plain; charset=utf-8'],
  ])('serves %s inline (sandboxed, nosniff) as %s', async (stored, served) => {
    const objectKey = `outputs/acct/task/inline-${stored.replace('/', '-')}`;
    await storedAsIs(objectKey, 'bytes', stored);
    const res = await t.app.inject({ method: 'GET', url: `/cdn/${objectKey}` });
    expect(res.headers['content-type']).toBe(served);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps outputs and uploads cacheable five minutes only: a deleted one stops being served', async () => {
    const output = 'outputs/acct/task-1/0-r1.png';
    await t.storage.put(output, body, { contentType: 'image/png' });
    for (const url of [`/cdn/${output}`, `/cdn/${key}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect({ url, cache: res.headers['cache-control'] }).toEqual({
        url,
        cache: 'public, max-age=300',
      });
    }
    await t.storage.delete([output]);
    const gone = await t.app.inject({ method: 'GET', url: `/cdn/${output}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['cache-control']).toBe('no-store');
  });
});
