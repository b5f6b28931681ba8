import { closedPort, WebhookReceiver } from '@genhub/testing';
import { WebhookHttpClient } from './webhook-http.client';

const headers = { 'content-type': 'application/json' };

describe('WebhookHttpClient (real receivers on 127.0.0.1)', () => {
  const receivers: WebhookReceiver[] = [];
  const clients: WebhookHttpClient[] = [];
  const start = async (b?: ConstructorParameters<typeof WebhookReceiver>[0]) => {
    const r = await WebhookReceiver.start(b);
    receivers.push(r);
    return r;
  };
  const client = (allowPrivateNetwork: boolean, timeoutMs = 2000) => {
    const c = new WebhookHttpClient({ timeoutMs, allowPrivateNetwork, connectionsPerHost: 10 });
    clients.push(c);
    return c;
  };
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(receivers.map((r) => r.close()));
  });

  describe('with ALLOW_PRIVATE_NETWORK_URLS=true', () => {
    it('POSTs the exact body and headers, and a 2xx is success', async () => {
      const r = await start({ kind: 'status', status: 204 });
      const body = '{"id":"x","n":1}';
      const result = await client(true).post(`${r.url}/hook`, { ...headers, 'x-a': 'b' }, body);
      expect(result).toEqual({ ok: true, statusCode: 204, error: null });
      expect(r.requests).toHaveLength(1);
      expect(r.requests[0]).toMatchObject({ method: 'POST', url: '/hook', body });
      expect(r.requests[0].headers).toMatchObject({
        'content-type': 'application/json',
        'x-a': 'b',
      });
    });

    it('calls a URL with its own query string intact', async () => {
      const r = await start();
      const url = `${r.url}/cb/x?token=a%2Fb%3D%3D&k=1&k=2&empty=`;
      expect((await client(true).post(url, headers, '{}')).ok).toBe(true);
      expect(r.requests[0].url).toBe('/cb/x?token=a%2Fb%3D%3D&k=1&k=2&empty=');
    });

    it('does not follow a redirect: a 3xx is a failed attempt', async () => {
      const target = await start();
      const r = await start({
        kind: 'status',
        status: 302,
        headers: { location: `${target.url}/elsewhere` },
      });
      const result = await client(true).post(`${r.url}/hook`, headers, '{}');
      expect(result).toEqual({ ok: false, statusCode: 302, error: null });
      expect(target.requests).toHaveLength(0);
    });

    it('reports a non-2xx answer as a failure with its status', async () => {
      const r = await start({ kind: 'status', status: 500 });
      expect(await client(true).post(r.url, headers, '{}')).toEqual({
        ok: false,
        statusCode: 500,
        error: null,
      });
    });

    it('times out a hanging receiver within WEBHOOK_TIMEOUT_MS', async () => {
      const r = await start({ kind: 'hang' });
      const t0 = Date.now();
      const result = await client(true, 300).post(r.url, headers, '{}');
      const elapsed = Date.now() - t0;
      expect(result).toEqual({ ok: false, statusCode: null, error: 'timed out after 300 ms' });
      expect(r.requests).toHaveLength(1);
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1500);
    });

    it('reports a closed port as connection refused', async () => {
      const port = await closedPort();
      expect(await client(true).post(`http://127.0.0.1:${port}/`, headers, '{}')).toEqual({
        ok: false,
        statusCode: null,
        error: 'connection refused',
      });
    });

    it('reaches a name resolving to 127.0.0.1 when private URLs are allowed', async () => {
      const r = await start();
      const result = await client(true).post(`http://localhost:${r.port}/x`, headers, '{}');
      expect(result.ok).toBe(true);
      expect(r.requests).toHaveLength(1);
    });

    it('refuses a non-http(s) URL', async () => {
      expect(await client(true).post('ftp://127.0.0.1/x', headers, '{}')).toMatchObject({
        ok: false,
        error: 'URL must be http(s)',
      });
    });
  });

  describe('with ALLOW_PRIVATE_NETWORK_URLS=false', () => {
    it.each([
      [
        'a literal loopback address',
        (p: number) => `http://127.0.0.1:${p}/hook`,
        /private network/,
      ],
      ['an IPv6 loopback literal', (p: number) => `http://[::1]:${p}/hook`, /private network/],
      [
        'an IPv4-mapped IPv6 literal',
        (p: number) => `http://[::ffff:127.0.0.1]:${p}/hook`,
        /private network/,
      ],
      [
        'a hostname resolving to 127.0.0.1 (checked after DNS)',
        (p: number) => `http://localhost:${p}/hook`,
        /localhost resolves to a private network address/,
      ],
    ])('refuses %s and sends no request', async (_, urlFor, message) => {
      const r = await start();
      const result = await client(false).post(urlFor(r.port), headers, '{}');
      expect(result.ok).toBe(false);
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(message);
      expect(r.requests).toHaveLength(0);
    });
  });
});
