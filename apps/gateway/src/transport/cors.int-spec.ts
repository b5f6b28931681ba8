import { RunningGateway, startGateway } from '../test/gateway-harness.util';

const APP = 'https://app.example.com';
const OPS = 'https://ops.example.com';

const preflight = (gw: RunningGateway, path: string, origin: string, method = 'POST') =>
  fetch(`${gw.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type,idempotency-key',
    },
  });

/** Browsers on listed origins may call the public API; the admin API only when asked for. */
describe('CORS (in-process gateway)', () => {
  describe('with CORS_ALLOWED_ORIGINS set and the admin origins unset', () => {
    let gw: RunningGateway;
    beforeAll(async () => {
      gw = await startGateway({ CORS_ALLOWED_ORIGINS: `${APP}, https://other.example.com` });
    });
    afterAll(() => gw.close());

    it('answers the preflight of a public route for a listed origin', async () => {
      const answer = await preflight(gw, '/api/v3/predictions', APP);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
      expect(answer.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE');
      expect(answer.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
        'authorization, content-type, idempotency-key',
      );
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('lets the page read Retry-After and x-request-id of a real answer', async () => {
      const answer = await fetch(`${gw.url}/v1/balance`, { headers: { origin: APP } });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
      expect(answer.headers.get('access-control-expose-headers')).toBe('Retry-After, x-request-id');
    });

    it('gives an unlisted origin no CORS headers, so its browser refuses', async () => {
      const answer = await preflight(gw, '/v1/balance', 'https://evil.example.com', 'GET');
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('answers no preflight for the admin API', async () => {
      const answer = await preflight(gw, '/admin/v1/accounts', APP);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(answer.status).toBe(404);
    });
  });

  describe('with CORS_ADMIN_ALLOWED_ORIGINS set', () => {
    let gw: RunningGateway;
    beforeAll(async () => {
      gw = await startGateway({ CORS_ALLOWED_ORIGINS: '*', CORS_ADMIN_ALLOWED_ORIGINS: OPS });
    });
    afterAll(() => gw.close());

    it('answers the admin preflight for its origin only, and any origin for the public API', async () => {
      expect(
        (await preflight(gw, '/admin/v1/accounts', OPS)).headers.get('access-control-allow-origin'),
      ).toBe(OPS);
      // The operator's page changes an account with PATCH (its cap, its level).
      expect(
        (await preflight(gw, '/admin/v1/accounts/x', OPS, 'PATCH')).headers.get(
          'access-control-allow-methods',
        ),
      ).toBe('GET, POST, PUT, DELETE, PATCH');
      expect(
        (await preflight(gw, '/admin/v1/accounts', APP)).headers.get('access-control-allow-origin'),
      ).toBeNull();
      expect(
        (await preflight(gw, '/api/v3/models', APP, 'GET')).headers.get(
          'access-control-allow-origin',
        ),
      ).toBe('*');
    });
  });

  it('without any origin configured, answers no preflight at all', async () => {
    const gw = await startGateway({});
    try {
      const answer = await preflight(gw, '/api/v3/models', APP, 'GET');
      expect(answer.status).toBe(404);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await gw.close();
    }
  });

  it('refuses to start with something that is not an origin', async () => {
    await expect(startGateway({ CORS_ALLOWED_ORIGINS: 'app.example.com/path' })).rejects.toThrow(
      /CORS_ALLOWED_ORIGINS must be origins like/,
    );
  });
});
