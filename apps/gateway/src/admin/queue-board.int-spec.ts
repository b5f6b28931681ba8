import { admin, call, RunningGateway, startGateway } from '../test/gateway-harness.util';
import { QUEUE_BOARD_COOKIE } from './queue-board.plugin';

describe('queue board at /admin/queues (bull-board, read-only, admin token)', () => {
  let gw: RunningGateway;

  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  it('refuses a request without the admin token or with a wrong one', async () => {
    expect((await call(`${gw.url}/admin/queues`)).status).toBe(401);
    expect((await call(`${gw.url}/admin/queues/api/queues`)).status).toBe(401);
    const wrong = await call(`${gw.url}/admin/queues/api/queues`, {
      headers: admin('wrong-token-0123456789'),
    });
    expect(wrong).toMatchObject({ status: 401, body: { code: 401 } });
  });

  it('serves the board and the queue list with the token (header or cookie)', async () => {
    const page = await call(`${gw.url}/admin/queues`, { headers: admin() });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');

    const list = await call(`${gw.url}/admin/queues/api/queues`, { headers: admin() });
    expect(list.status).toBe(200);
    const queues = (list.body as { queues: { name: string; readOnlyMode: boolean }[] }).queues;
    expect(queues.map((q) => q.name).sort()).toEqual(['billing', 'tasks', 'webhooks']);
    expect(queues.every((q) => q.readOnlyMode)).toBe(true);

    const token = admin().authorization.slice('Bearer '.length);
    const byCookie = await call(`${gw.url}/admin/queues/api/queues`, {
      headers: { cookie: `other=1; ${QUEUE_BOARD_COOKIE}=${encodeURIComponent(token)}` },
    });
    expect(byCookie.status).toBe(200);
  });

  it('refuses every mutation, even with the token', async () => {
    for (const [method, path] of [
      ['PUT', '/admin/queues/api/queues/tasks/pause'],
      ['PUT', '/admin/queues/api/queues/pause'],
      ['PUT', '/admin/queues/api/queues/tasks/clean/completed'],
      ['PUT', '/admin/queues/api/queues/tasks/empty'],
      ['PUT', '/admin/queues/api/queues/tasks/retry/failed'],
      ['POST', '/admin/queues/api/queues/tasks/add'],
    ])
      expect((await call(`${gw.url}${path}`, { method, headers: admin() })).status).toBe(405);
  });

  it('is not mounted when ADMIN_TOKEN is unset', async () => {
    const closed = await startGateway({ ADMIN_TOKEN: undefined });
    try {
      expect((await call(`${closed.url}/admin/queues`, { headers: admin() })).status).toBe(404);
      expect(
        (await call(`${closed.url}/admin/queues/api/queues`, { headers: admin() })).status,
      ).toBe(404);
    } finally {
      await closed.close();
    }
  });
});
