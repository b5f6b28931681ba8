import { call, createAccountWithKey, startGateway } from '../test/gateway-harness.util';

/**
 * What SIGTERM does to the gateway (enableShutdownHooks → app.close()): the
 * requests in flight get their answers before it exits, including a
 * `sync=true` wait, which answers the processing shape rather than hanging
 * until SYNC_TIMEOUT_MS outlives SHUTDOWN_GRACE_MS.
 */
describe('gateway shutdown with requests in flight', () => {
  it('answers the in-flight sync=true wait with the processing shape, then closes', async () => {
    const gw = await startGateway({ SYNC_TIMEOUT_MS: '120000' });
    let closed = false;
    try {
      const { key } = await createAccountWithKey(gw.url);
      // No task-worker runs here: the sync wait can only end by the deadline or by shutdown.
      const waiting = call(`${gw.url}/v1/local/simulator/test?sync=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: { prompt: 'shutdown' },
      });
      await new Promise((r) => setTimeout(r, 500));
      const started = Date.now();
      await gw.close();
      closed = true;
      const answer = await waiting;
      expect(Date.now() - started).toBeLessThan(3000);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id: expect.any(String), status: 'processing' });
    } finally {
      if (!closed) await gw.close();
    }
  }, 20_000);
});
