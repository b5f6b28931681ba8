import { DataSource } from 'typeorm';
import { MAX_STREAMS_PER_ACCOUNT, TaskEventsHub } from '@genhub/tasks-feature';
import { until } from '@genhub/testing';
import {
  call,
  createAccountWithKey,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

/** Reads a stream's raw text as it arrives, until `done` says so or the stream ends. */
async function readUntil(
  response: Response,
  done: (text: string) => boolean,
): Promise<{ text: string; ended: boolean }> {
  const decoder = new TextDecoder();
  let text = '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { value, done: ended } = await reader.read();
    if (ended) return { text, ended: true };
    text += decoder.decode(value, { stream: true });
    if (done(text)) {
      await reader.cancel();
      return { text, ended: false };
    }
  }
}

/**
 * The gateway's event hub in process (no task-worker: the test moves the
 * tasks itself), its timer shortened: heartbeats, the reconcile pass and a new
 * stream's early re-read that catch a status change whose notice never came,
 * the per-account cap, and shutdown ending every stream.
 */
describe('task event hub (in-process gateway, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  let db: DataSource;
  let account: { accountId: string; key: string };
  let hub: TaskEventsHub;

  const submit = async () => {
    const answer = await call(`${gw.url}/v1/local/simulator/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}` },
      body: { prompt: 'hub' },
    });
    return (answer.body as { id: string }).id;
  };
  const open = (id: string, signal?: AbortSignal) =>
    fetch(`${gw.url}/api/v3/predictions/${id}/events`, {
      headers: { authorization: `Bearer ${account.key}` },
      signal,
    });

  beforeAll(async () => {
    gw = await startGateway();
    db = gw.app.get(DataSource);
    hub = gw.app.get(TaskEventsHub);
    hub.timing = { tickMs: 50, positionTicks: 2, heartbeatTicks: 2, reconcileTicks: 4 };
    account = await createAccountWithKey(gw.url, 10);
  });
  afterAll(() => gw?.close());

  it('sends heartbeats while nothing changes', async () => {
    const id = await submit();
    const { text } = await readUntil(await open(id), (t) => t.includes(': heartbeat'));
    expect(text).toMatch(/^retry: 2000\n\nevent: created\nid: 1\ndata: \{.*\}\n\n/);
    expect(text).toContain(': heartbeat\n\n');
  });

  it('catches a change whose notice never came (the reconcile pass), then ends', async () => {
    const id = await submit();
    const response = await open(id);
    // No worker, no notice: only the row changes.
    await db.query(
      `UPDATE tasks.tasks SET status = 'failed', code = 1200, error = 'gone wrong' WHERE id = $1`,
      [id],
    );
    const { text, ended } = await readUntil(response, () => false);
    expect(ended).toBe(true);
    expect(text).toMatch(/event: failed\nid: 3\ndata: \{[^\n]*"code":1200/);
  });

  it('reads a new stream’s task once more soon after it opened: a claim whose notice was skipped shows', async () => {
    const reconcileTicks = hub.timing.reconcileTicks;
    hub.timing.reconcileTicks = 1000; // only the new stream's re-read can see the change
    try {
      const id = await submit();
      const response = await open(id);
      // As a claim whose `processing` notice a worker skipped (nobody was listening yet).
      await db.query(`UPDATE tasks.tasks SET status = 'processing' WHERE id = $1`, [id]);
      const { text } = await readUntil(response, (t) => t.includes('event: processing'));
      expect(text).toMatch(/event: created\nid: 1\n[\s\S]*event: processing\nid: 2\n/);
    } finally {
      hub.timing.reconcileTicks = reconcileTicks;
    }
  });

  it(`refuses an account’s stream beyond ${MAX_STREAMS_PER_ACCOUNT} with 429, and counts each closed one`, async () => {
    const id = await submit();
    const controller = new AbortController();
    const held = await Promise.all(
      Array.from({ length: MAX_STREAMS_PER_ACCOUNT }, () => open(id, controller.signal)),
    );
    expect(held.every((r) => r.status === 200)).toBe(true);
    const refused = await open(id);
    expect([refused.status, await refused.json()]).toEqual([
      429,
      { code: 429, message: 'Too many open event streams: close one and retry', data: null },
    ]);
    controller.abort();
    await until(async () => hub.openStreams === 0);
    const again = await open(id);
    expect(again.status).toBe(200);
    await again.body?.cancel();
    await until(async () => hub.openStreams === 0);
  });

  it('ends every open stream at shutdown, so clients resume elsewhere', async () => {
    const id = await submit();
    const response = await open(id);
    await until(async () => hub.openStreams === 1);
    hub.beforeApplicationShutdown();
    const { text, ended } = await readUntil(response, () => false);
    expect(ended).toBe(true);
    expect(text).toContain('event: created');
    expect(text).not.toMatch(/event: (completed|failed|deleted)/);
    const refused = await open(id);
    expect(refused.status).toBe(503);
    await until(async () => hub.openStreams === 0);
  });
});
