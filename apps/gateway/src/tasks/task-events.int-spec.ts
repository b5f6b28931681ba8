import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { createGenhubClient, listTasks, type TaskEvent, taskEvents } from '@genhub/contracts';
import {
  closedPort,
  launchChromium,
  type LocalPlatform,
  startLocalPlatform,
  until,
} from '@genhub/testing';

const workspaceRoot = join(__dirname, '../../../..');

/**
 * A page of another origin that uses only the contracts library's browser
 * bundle: submits, lists, follows the task with the typed client (fetch), and
 * with a plain EventSource and a token.
 */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>genhub in a browser</title>
<script type="module">
  import { createGenhubClient, listTasks, taskEvents } from './contracts.js';
  window.demo = async (baseUrl, apiKey) => {
    const client = createGenhubClient({ baseUrl, apiKey });
    const submitted = await client.POST('/v1/local/simulator/test', {
      body: { prompt: 'from a browser', duration_ms: 300 },
    });
    const id = submitted.data.id;
    const listed = (await listTasks(client, { limit: 5 })).items.map((task) => task.id);
    const events = [];
    let outputs = [];
    for await (const event of taskEvents(client, id)) {
      events.push(event.event);
      if (event.event === 'completed') outputs = event.data.outputs;
    }
    const token = await client.POST('/api/v3/predictions/{task_id}/events/token', {
      params: { path: { task_id: id } },
    });
    const viaEventSource = await new Promise((resolve, reject) => {
      const source = new EventSource(token.data.data.url);
      source.addEventListener('completed', (event) => {
        source.close();
        resolve(JSON.parse(event.data).status);
      });
      source.onerror = () => {
        source.close();
        reject(new Error('EventSource failed'));
      };
    });
    return { id, listed, events, outputs, viaEventSource };
  };
  window.ready = true;
</script>`;
const SIMULATOR = 'local/simulator/test';

interface Frame {
  event?: string;
  id?: string;
  data: unknown;
}

interface Answer {
  status: number;
  contentType: string | null;
  frames: Frame[];
  retry?: number;
  body?: unknown;
}

/**
 * Reads a whole event stream (or the error answer) with plain fetch, so the
 * wire format itself is what is checked. `onFrame` may act mid-stream.
 */
async function readStream(
  url: string,
  headers: Record<string, string>,
  onFrame?: (frame: Frame) => void | Promise<void>,
): Promise<Answer> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
  const answer: Answer = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    frames: [],
  };
  if (!answer.contentType?.startsWith('text/event-stream')) {
    const text = await response.text();
    answer.body = text ? JSON.parse(text) : undefined;
    return answer;
  }
  const parsed: Frame[] = [];
  const parser = createParser({
    onEvent: (m) => parsed.push({ event: m.event, id: m.id, data: JSON.parse(m.data) }),
    onRetry: (ms) => (answer.retry = ms),
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    for (let frame = parsed.shift(); frame; frame = parsed.shift()) {
      answer.frames.push(frame);
      await onFrame?.(frame);
    }
  }
  return answer;
}

const names = (answer: Answer) => answer.frames.map((f) => f.event);

/**
 * GET /api/v3/predictions/{id}/events (issue 21) against the built gateway and
 * task-worker: the worker's status and terminal notices drive the stream
 * (one task at a time, so queue positions are seen), in every ending, with
 * resumption, the EventSource token, tenant isolation, and no stream left
 * open when a client goes away.
 */
describe('task event streams (built gateway + task-worker)', () => {
  let platform: LocalPlatform;
  let gateway: string;
  let key: string;
  let otherKey: string;
  let pagePort: number;
  const auth = () => ({ authorization: `Bearer ${key}` });

  const submit = async (input: Record<string, unknown>, bearer = key, query = '') => {
    const response = await fetch(`${gateway}/v1/${SIMULATOR}${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'events', ...input }),
    });
    return (await response.json()) as { id: string; status: string };
  };
  const events = (id: string) => `${gateway}/api/v3/predictions/${id}/events`;
  const openStreams = async () => {
    const text = await (await fetch(`${gateway}/metrics`)).text();
    return Number(/^genhub_task_event_streams_open(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1]);
  };
  /** Until no task of ours waits or runs (one runs at a time: a leftover would queue the next). */
  const idle = () =>
    until(async () => {
      const client = createGenhubClient({ baseUrl: gateway, apiKey: key });
      const [created, processing] = await Promise.all(
        (['created', 'processing'] as const).map((status) => listTasks(client, { status })),
      );
      return created.items.length + processing.items.length === 0;
    }, 10_000);
  beforeAll(async () => {
    const gatewayPort = await closedPort();
    pagePort = await closedPort();
    gateway = `http://127.0.0.1:${gatewayPort}`;
    platform = await startLocalPlatform(
      'events',
      {
        SYNC_TIMEOUT_MS: '1000',
        // One task at a time: the tasks behind it wait in the queue.
        TASK_CONCURRENCY: '1',
        CORS_ALLOWED_ORIGINS: `http://127.0.0.1:${pagePort}`,
      },
      { gatewayPort },
    );
    key = await platform.accountWithKey();
    otherKey = await platform.accountWithKey();
  }, 120_000);

  afterAll(() => platform?.stop());

  it('a task that waits, runs and completes: created, its place in the queue, processing, completed', async () => {
    await submit({ duration_ms: 1500 }); // runs first
    await submit({ duration_ms: 2500 }); // then this one, while ours waits at position 0
    const { id } = await submit({ duration_ms: 100, num_outputs: 2 });
    const answer = await readStream(events(id), auth());
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('text/event-stream; charset=utf-8');
    expect(answer.retry).toBe(2000);
    expect(names(answer)).toEqual(['created', 'queue', 'queue', 'processing', 'completed']);
    const [created, ahead1, ahead0, processing, completed] = answer.frames;
    expect([created.id, processing.id, completed.id]).toEqual(['1', '2', '3']);
    // One task ahead, started at the pace of the two before it; then next (0 ms).
    expect(ahead1).toEqual({
      event: 'queue',
      data: { id, queue_position: 1, estimated_start_ms: expect.any(Number) },
    });
    expect((ahead1.data as { estimated_start_ms: number }).estimated_start_ms).toBeGreaterThan(0);
    expect(ahead0).toEqual({
      event: 'queue',
      data: { id, queue_position: 0, estimated_start_ms: 0 },
    });
    expect(created.data).toMatchObject({ id, status: 'created', outputs: [] });
    expect(processing.data).toMatchObject({ id, status: 'processing' });
    expect(completed.data).toMatchObject({
      id,
      model: SIMULATOR,
      status: 'completed',
      urls: { get: `${gateway}/api/v3/predictions/${id}/result` },
    });
    expect((completed.data as { outputs: string[] }).outputs).toHaveLength(2);
  }, 30_000);

  it('a failing task ends with failed, its code and error', async () => {
    const { id } = await submit({ duration_ms: 300, fail_code: 1200 });
    const answer = await readStream(events(id), auth());
    expect(names(answer).slice(-1)).toEqual(['failed']);
    expect(answer.frames.at(-1)).toMatchObject({
      id: '3',
      data: { id, status: 'failed', code: 1200, outputs: [] },
    });
    // Statuses only move forward, each at most once.
    const statuses = names(answer).filter((n) => n !== 'queue');
    expect(['created', 'processing', 'failed'].filter((n) => statuses.includes(n))).toEqual(
      statuses,
    );
  }, 30_000);

  it('a task deleted while it waits ends with deleted', async () => {
    await submit({ duration_ms: 1500 });
    const { id } = await submit({});
    const answer = await readStream(events(id), auth(), async (frame) => {
      if (frame.event === 'created')
        await fetch(`${gateway}/api/v3/predictions/${id}`, { method: 'DELETE', headers: auth() });
    });
    expect(names(answer)[0]).toBe('created');
    expect(answer.frames.at(-1)).toEqual({
      event: 'deleted',
      id: '3',
      data: { id, status: 'deleted' },
    });
    expect(names(answer)).not.toContain('processing');
  }, 30_000);

  it('a sync wait that ran out: the stream picks the task up and sees it finish', async () => {
    await idle();
    const timedOut = await submit({ duration_ms: 2500 }, key, '?sync=true');
    expect(timedOut.status).toBe('processing');
    const answer = await readStream(events(timedOut.id), auth());
    expect(names(answer)).toEqual(['processing', 'completed']);
  }, 30_000);

  it('a finished task gets its terminal event at once; resumption skips what was seen; after the end, 204', async () => {
    const { id } = await submit({}, key, '?sync=true');
    const fresh = await readStream(events(id), auth());
    expect(names(fresh)).toEqual(['completed']);
    const resumed = await readStream(events(id), { ...auth(), 'last-event-id': '1' });
    expect(names(resumed)).toEqual(['completed']);
    const ended = await fetch(events(id), { headers: { ...auth(), 'last-event-id': '3' } });
    expect([ended.status, await ended.text()]).toEqual([204, '']);
    // A Last-Event-ID this API never gave starts afresh.
    const odd = await readStream(events(id), { ...auth(), 'last-event-id': 'x-9' });
    expect(names(odd)).toEqual(['completed']);
  }, 30_000);

  it('EventSource’s way in: a token for one task, never the API key in the URL', async () => {
    const { id } = await submit({}, key, '?sync=true');
    const issued = await fetch(`${gateway}/api/v3/predictions/${id}/events/token`, {
      method: 'POST',
      headers: auth(),
    });
    const { code, data } = (await issued.json()) as {
      code: number;
      data: { url: string; token: string; expires_at: string };
    };
    expect(code).toBe(200);
    expect(data.url).toBe(`${gateway}/api/v3/predictions/${id}/events?token=${data.token}`);
    expect(data.url).not.toContain(key);
    const minutes = (Date.parse(data.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4);
    expect(minutes).toBeLessThanOrEqual(5);
    expect(names(await readStream(data.url, {}))).toEqual(['completed']);

    const other = await submit({}, key);
    const refused = await readStream(`${events(other.id)}?token=${data.token}`, {});
    expect([refused.status, refused.body]).toEqual([
      401,
      { code: 401, message: 'Event stream token is not valid or has expired', data: null },
    ]);
    const forged = await readStream(`${data.url.slice(0, -3)}abc`, {});
    expect(forged.status).toBe(401);
    const bare = await readStream(events(id), {});
    expect([bare.status, bare.body]).toEqual([
      401,
      { code: 401, message: 'Missing Authorization header', data: null },
    ]);
  }, 30_000);

  it('another account’s task is 404 on the stream, the token route and the list', async () => {
    const { id } = await submit({}, key);
    const notFound = { code: 404, message: 'Not found', data: null };
    const other = { authorization: `Bearer ${otherKey}` };
    const stream = await readStream(events(id), other);
    expect([stream.status, stream.body]).toEqual([404, notFound]);
    const resumed = await readStream(events(id), { ...other, 'last-event-id': '3' });
    expect([resumed.status, resumed.body]).toEqual([404, notFound]);
    const token = await fetch(`${events(id)}/token`, { method: 'POST', headers: other });
    expect([token.status, await token.json()]).toEqual([404, notFound]);
    const unknown = await readStream(events('0f8fad5b-d9cb-469f-a165-70867728950e'), auth());
    expect(unknown.status).toBe(404);
    const client = createGenhubClient({ baseUrl: gateway, apiKey: otherKey });
    const page = await listTasks(client, { limit: 100 });
    expect(page.items.map((t) => t.id)).not.toContain(id);
  }, 30_000);

  it('a client that leaves: its stream is closed on the server (the gauge returns to zero)', async () => {
    await submit({ duration_ms: 2000 });
    const waiting = await Promise.all([submit({}), submit({})]);
    const controllers = waiting.map(() => new AbortController());
    const opened = await Promise.all(
      waiting.map((task, i) =>
        fetch(events(task.id), { headers: auth(), signal: controllers[i].signal }),
      ),
    );
    expect(opened.map((r) => r.status)).toEqual([200, 200]);
    await until(async () => (await openStreams()) === 2);
    for (const controller of controllers) controller.abort();
    await until(async () => (await openStreams()) === 0);
  }, 30_000);

  it('the typed client: lists the tasks and follows one to its end, in Node', async () => {
    const client = createGenhubClient({ baseUrl: gateway, apiKey: key });
    const { id } = await submit({ duration_ms: 500 });
    const page = await listTasks(client, { limit: 1 });
    expect(page.items[0].id).toBe(id);
    const seen: TaskEvent[] = [];
    for await (const event of taskEvents(client, id)) seen.push(event);
    expect(seen.at(-1)).toMatchObject({ event: 'completed', id: '3', data: { id } });
    const statuses = seen.filter((e) => e.event !== 'queue').map((e) => e.event);
    expect(statuses[statuses.length - 1]).toBe('completed');
    // Resuming after the end gives nothing more.
    const after: TaskEvent[] = [];
    for await (const event of taskEvents(client, id, { lastEventId: '3' })) after.push(event);
    expect(after).toEqual([]);
  }, 30_000);

  it('a browser page on an allowed origin lists tasks and follows one to its end with only the typed client', async () => {
    const bundle = join(platform.dir, 'contracts.js');
    execFileSync('node', ['tools/contracts/bundle-browser.cjs', '--out', bundle], {
      cwd: workspaceRoot,
    });
    const page: Server = createServer((request, response) => {
      const js = request.url === '/contracts.js';
      response.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html' });
      response.end(js ? readFileSync(bundle) : PAGE);
    });
    await new Promise<void>((resolve) => page.listen(pagePort, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(`http://127.0.0.1:${pagePort}/`);
      await tab.waitForFunction(
        () => (globalThis as unknown as { ready?: boolean }).ready === true,
      );
      const result = await tab.evaluate(
        ([baseUrl, apiKey]) =>
          (
            globalThis as unknown as {
              demo(baseUrl: string, apiKey: string): Promise<Record<string, unknown>>;
            }
          ).demo(baseUrl, apiKey),
        [gateway, key],
      );
      expect((result.listed as string[])[0]).toBe(result.id);
      expect((result.events as string[]).at(-1)).toBe('completed');
      expect(result.outputs).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/cdn\//)]);
      expect(result.viaEventSource).toBe('completed');
    } finally {
      await browser.close();
      await new Promise((resolve) => page.close(resolve));
    }
  }, 60_000);
});
