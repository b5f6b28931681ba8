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

  it('serves the object with type, length and long cache headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/cdn/${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe('20');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['accept-ranges']).toBe('bytes');
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
});
