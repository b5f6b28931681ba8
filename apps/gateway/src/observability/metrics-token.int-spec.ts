import { call, RunningGateway, startGateway, TEST_ADMIN_TOKEN } from '../test/gateway-harness.util';

/**
 * The gateway's /metrics shares the public port: with METRICS_TOKEN set a
 * scrape needs `Authorization: Bearer <METRICS_TOKEN>` (decision 0127); the
 * refusals are the standard 401s. The probes stay open for the orchestrator.
 */
describe('gateway /metrics behind METRICS_TOKEN', () => {
  const METRICS_TOKEN = 'metrics-token-for-this-test-4c1d9a7e';
  let gw: RunningGateway;

  beforeAll(async () => {
    gw = await startGateway({ METRICS_TOKEN });
  });
  afterAll(() => gw?.close());

  const scrape = (authorization?: string) =>
    call(`${gw.url}/metrics`, { headers: authorization ? { authorization } : {} });

  it('refuses a scrape without the token, with another token, or with the admin token', async () => {
    expect(await scrape()).toMatchObject({
      status: 401,
      body: { code: 401, error: 'Missing Authorization header' },
    });
    expect(await scrape(METRICS_TOKEN)).toMatchObject({
      status: 401,
      body: { code: 401, error: 'Invalid Authorization format, expected: Bearer <api_key>' },
    });
    for (const wrong of [`${METRICS_TOKEN}x`, TEST_ADMIN_TOKEN])
      expect(await scrape(`Bearer ${wrong}`)).toMatchObject({
        status: 401,
        body: { code: 401, error: 'Invalid metrics token' },
      });
  });

  it('answers the scrape that carries it', async () => {
    const answer = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.text).toMatch(/^genhub_queue_jobs\{/m);
  });

  it('keeps /health and /ready open', async () => {
    expect((await call(`${gw.url}/health`)).status).toBe(200);
    expect((await call(`${gw.url}/ready`)).status).toBe(200);
  });

  it('without METRICS_TOKEN (development) the scrape is open', async () => {
    const open = await startGateway({ METRICS_TOKEN: undefined });
    try {
      expect((await call(`${open.url}/metrics`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
