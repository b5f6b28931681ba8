import Replicate, { type ApiError, type Prediction, validateWebhook } from 'replicate';
import { type LocalPlatform, startLocalPlatform, until, WebhookReceiver } from '@genhub/testing';

const SIMULATOR_VERSION = 'local~simulator~test';

/**
 * Replicate's official JavaScript client (npm `replicate`, unmodified) against
 * the built gateway, task-worker, webhook-dispatcher and billing app: code
 * written for Replicate runs on genhub with `baseUrl` and a genhub key
 * (decision 0137). Each prediction is billed once, on the same ledger as `/v1`.
 */
describe('the official replicate client against genhub', () => {
  let platform: LocalPlatform;
  let baseUrl: string;
  let apiKey: string;
  let replicate: Replicate;
  let receiver: WebhookReceiver;

  const admin = () => ({
    authorization: `Bearer ${platform.adminToken}`,
    'content-type': 'application/json',
  });
  const client = (auth: string) => new Replicate({ auth, baseUrl, useFileOutput: false });
  const balanceOf = async (key: string) => {
    const answer = await fetch(`${platform.gateway}/v1/balance`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return ((await answer.json()) as { balance: number }).balance;
  };
  /** The refusal the client throws: its status and the body it quotes in its message. */
  const refusal = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    // The client's ApiError (its class is not exported at run time).
    expect((error as Error).name).toBe('ApiError');
    const { message, response } = error as ApiError;
    const body = JSON.parse(message.slice(message.indexOf(': ') + 2, -1)) as {
      title: string;
      detail: string;
      status: number;
    };
    return { status: response.status, body };
  };

  beforeAll(async () => {
    platform = await startLocalPlatform(
      'replicate',
      { ALLOW_PRIVATE_NETWORK_URLS: 'true', WEBHOOK_RETRY_DELAYS_MS: '0,200,400' },
      { apps: ['gateway', 'task-worker', 'webhook-dispatcher', 'billing'] },
    );
    baseUrl = `${platform.gateway}/replicate/v1`;
    apiKey = await platform.accountWithKey();
    replicate = client(apiKey);
    receiver = await WebhookReceiver.start();
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  }, 30_000);

  it('the model and its versions: the ids run() and POST /predictions take', async () => {
    const model = await replicate.models.get('local', 'simulator');
    expect(model).toMatchObject({
      owner: 'local',
      name: 'simulator',
      url: `${baseUrl}/models/local/simulator`,
      latest_version: { id: SIMULATOR_VERSION },
    });
    const video = await replicate.models.versions.list('local', 'video');
    expect(video.results.map((v) => v.id).sort()).toEqual([
      'local~video~image-to-video',
      'local~video~text-to-video',
    ]);
    const one = await replicate.models.versions.get('local', 'video', 'local~video~text-to-video');
    expect(one.id).toBe('local~video~text-to-video');
  });

  it('run by model: Prefer: wait, the output in the first answer', async () => {
    const output = (await replicate.run('local/simulator', {
      input: { prompt: 'a lighthouse', num_outputs: 2, duration_ms: 100 },
    })) as string[];
    expect(output).toHaveLength(2);
    for (const url of output) expect((await fetch(url)).status).toBe(200);
  }, 30_000);

  it('run by owner/name:version, polling: the output once it succeeded', async () => {
    const seen: string[] = [];
    const output = (await replicate.run(
      `local/simulator:${SIMULATOR_VERSION}`,
      { input: { prompt: 'polled', duration_ms: 600 }, wait: { mode: 'poll', interval: 100 } },
      (prediction) => seen.push(prediction.status),
    )) as string[];
    expect(output).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/cdn\/outputs\//)]);
    expect(seen[0]).toBe('starting');
    expect(seen[seen.length - 1]).toBe('succeeded');
  }, 30_000);

  it('run of a failing prediction throws the client’s "Prediction failed"', async () => {
    const error = await replicate
      .run('local/simulator', { input: { prompt: 'fail', fail_code: 1200 } })
      .catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/^Prediction failed: /);
  }, 30_000);

  it('create, wait and get: the prediction object with its links under baseUrl', async () => {
    const created = await replicate.predictions.create({
      version: SIMULATOR_VERSION,
      input: { prompt: 'created', duration_ms: 300 },
    });
    expect(created).toMatchObject({
      status: 'starting',
      model: 'local/simulator',
      version: SIMULATOR_VERSION,
      input: { prompt: 'created', duration_ms: 300 },
      output: null,
      urls: {
        get: `${baseUrl}/predictions/${created.id}`,
        cancel: `${baseUrl}/predictions/${created.id}/cancel`,
      },
    });
    const done = await replicate.wait(created, { interval: 100 });
    expect(done.status).toBe('succeeded');
    const got = await replicate.predictions.get(created.id);
    expect(got).toMatchObject({
      id: created.id,
      status: 'succeeded',
      output: [expect.any(String)],
      error: null,
      logs: '',
      data_removed: false,
      metrics: { predict_time: expect.any(Number) },
    });
    expect(Date.parse(got.completed_at as string)).toBeGreaterThanOrEqual(
      Date.parse(got.started_at as string),
    );
  }, 30_000);

  it('a wait that runs out answers starting, and wait() then polls to the end', async () => {
    const created = await replicate.predictions.create({
      model: 'local/simulator',
      input: { prompt: 'slow', duration_ms: 2500 },
      wait: 1,
    });
    expect(created.status).toBe('starting');
    expect((await replicate.wait(created, { interval: 200 })).status).toBe('succeeded');
  }, 30_000);

  it('cancel: a running prediction is canceled and reads canceled afterwards', async () => {
    const created = await replicate.predictions.create({
      version: SIMULATOR_VERSION,
      input: { prompt: 'long', duration_ms: 20_000 },
    });
    await until(
      async () => (await replicate.predictions.get(created.id)).status === 'processing',
      10_000,
    );
    const canceled = await replicate.predictions.cancel(created.id);
    expect(canceled).toMatchObject({ id: created.id, status: 'canceled', output: null });
    expect((await replicate.predictions.get(created.id)).status).toBe('canceled');
    // A finished prediction is answered as it is.
    const [latest] = (await replicate.predictions.list()).results.filter(
      (p) => p.status === 'succeeded',
    );
    expect((await replicate.predictions.cancel(latest.id)).status).toBe('succeeded');
  }, 30_000);

  it('refusals as the client surfaces them: 404, 422, 401, 403 and 402 with nothing charged', async () => {
    const before = await balanceOf(apiKey);
    expect(await refusal(replicate.run('acme/nothing', { input: { prompt: 'x' } }))).toEqual({
      status: 404,
      body: { title: 'Not found', detail: expect.stringContaining('acme/nothing'), status: 404 },
    });
    expect(await refusal(replicate.run('local/simulator', { input: { duration_ms: 5 } }))).toEqual({
      status: 422,
      body: {
        title: 'Input validation failed',
        detail: expect.stringContaining('prompt'),
        status: 422,
      },
    });
    const several = await refusal(replicate.run('local/video', { input: { prompt: 'x' } }));
    expect(several.status).toBe(422);
    expect(several.body.detail).toContain('local~video~text-to-video');
    const badVersion = await refusal(replicate.run('local/simulator:0123abcd', { input: {} }));
    expect([badVersion.status, badVersion.body.title]).toEqual([422, 'Input validation failed']);
    expect(badVersion.body.detail).toContain('Invalid version');
    expect(
      await refusal(
        replicate.predictions.create({
          model: 'local/simulator',
          input: { prompt: 'x' },
          webhook_events_filter: ['finished' as 'completed'],
        }),
      ),
    ).toMatchObject({ status: 422, body: { detail: expect.stringContaining('webhook_events') } });
    // What genhub does not offer answers 404 in the same shape.
    expect(await refusal(replicate.trainings.list())).toEqual({
      status: 404,
      body: { title: 'Not found', detail: 'Not found', status: 404 },
    });
    expect(await refusal(client('gh_not-a-key').predictions.list())).toEqual({
      status: 401,
      body: { title: 'Unauthenticated', detail: 'Invalid or revoked API key', status: 401 },
    });
    expect(await balanceOf(apiKey)).toBe(before);

    // A key limited to other models: 403, before anything is reserved.
    const accounts = await fetch(`${platform.gateway}/admin/v1/accounts`, {
      method: 'POST',
      headers: admin(),
      body: JSON.stringify({ balance: 0 }),
    });
    const { id: poorId } = (await accounts.json()) as { id: string };
    const issue = async (body: object) => {
      const answer = await fetch(`${platform.gateway}/admin/v1/accounts/${poorId}/api-keys`, {
        method: 'POST',
        headers: admin(),
        body: JSON.stringify(body),
      });
      return ((await answer.json()) as { key: string }).key;
    };
    const limited = client(await issue({ allowed_models: ['local/video/*'] }));
    expect(await refusal(limited.run('local/simulator', { input: { prompt: 'x' } }))).toMatchObject(
      { status: 403, body: { title: 'Forbidden', status: 403 } },
    );
    const readOnly = client(await issue({ scopes: ['tasks:read'] }));
    expect(
      (await refusal(readOnly.run('local/simulator', { input: { prompt: 'x' } }))).status,
    ).toBe(403);
    // No balance: 402 in Replicate's words, nothing reserved.
    const poor = await issue({});
    expect(await refusal(client(poor).run('local/simulator', { input: { prompt: 'x' } }))).toEqual({
      status: 402,
      body: {
        title: 'Insufficient credit',
        detail: expect.stringContaining('Insufficient balance'),
        status: 402,
      },
    });
    expect(await balanceOf(poor)).toBe(0);

    // A key's spend limit short of the price: 402 too, in the key limit's words.
    const funded = await fetch(`${platform.gateway}/admin/v1/accounts`, {
      method: 'POST',
      headers: admin(),
      body: JSON.stringify({ balance: 1 }),
    });
    const { id: fundedId } = (await funded.json()) as { id: string };
    const capped = await fetch(`${platform.gateway}/admin/v1/accounts/${fundedId}/api-keys`, {
      method: 'POST',
      headers: admin(),
      body: JSON.stringify({ spend_limit: { amount: 0.0005, period: 'day' } }),
    });
    const cappedKey = ((await capped.json()) as { key: string }).key;
    expect(
      await refusal(client(cappedKey).run('local/simulator', { input: { prompt: 'x' } })),
    ).toEqual({
      status: 402,
      body: {
        title: 'Insufficient credit',
        detail: expect.stringContaining('API key spend limit reached'),
        status: 402,
      },
    });
    expect(await balanceOf(cappedKey)).toBe(1);
  }, 30_000);

  it('webhooks: signed as Replicate signs them, only for the events asked for, each once', async () => {
    const { key: secret } = await replicate.webhooks.default.secret.get();
    expect(secret).toMatch(/^whsec_/);
    const create = (path: string, prompt: string, events?: Prediction['status'][] | string[]) =>
      replicate.predictions.create({
        model: 'local/simulator',
        input: { prompt, duration_ms: 50, ...(prompt === 'fails' ? { fail_code: 1200 } : {}) },
        webhook: `${receiver.url}${path}`,
        ...(events ? { webhook_events_filter: events as ('completed' | 'output')[] } : {}),
      });
    const completed = await create('/completed', 'hooked', ['completed']);
    const started = await create('/both', 'start and end', ['start', 'completed']);
    const outputOfFailure = await create('/output', 'fails', ['output']);
    const byDefault = await create('/default', 'every event');
    for (const id of [completed.id, started.id, outputOfFailure.id, byDefault.id])
      await replicate.wait({ id } as Prediction, { interval: 100 }).catch(() => undefined);
    await until(() => receiver.requests.length >= 5, 10_000);
    // Time for a delivery that should not happen to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const statusesAt = (path: string) =>
      receiver.requests
        .filter((r) => r.url === path)
        .map((r) => (JSON.parse(r.body) as Prediction).status);
    // Exactly once each; nothing for a filter the ending misses. The start and the end are
    // independent deliveries (decision 0137): the start usually arrives first, but on a busy
    // machine the end can overtake it, so the order of arrival is not asserted; the payloads
    // carry the order instead (below).
    expect(statusesAt('/completed')).toEqual(['succeeded']);
    expect(statusesAt('/both').sort()).toEqual(['processing', 'succeeded']);
    expect(statusesAt('/default').sort()).toEqual(['processing', 'succeeded']);
    expect(receiver.requests).toHaveLength(5);
    for (const request of receiver.requests) {
      const headers = request.headers as Record<string, string>;
      // As a receiver hands it over: the request as it arrived.
      const received = (body: string) =>
        new Request(`${receiver.url}${request.url}`, { method: 'POST', headers, body });
      expect(await validateWebhook(received(request.body), secret)).toBe(true);
      const tampered = received(request.body.replace(/"status":"\w+"/, '"status":"failed"'));
      expect(await validateWebhook(tampered, secret)).toBe(false);
      const body = JSON.parse(request.body) as Prediction;
      const common = {
        model: 'local/simulator',
        version: SIMULATOR_VERSION,
        urls: { get: `${baseUrl}/predictions/${body.id}` },
      };
      if (body.status === 'processing') {
        // The start event: the prediction as its run claimed it, with an id of its own.
        expect(headers['webhook-id']).toBe(`start-${body.id}`);
        expect(body).toMatchObject({ ...common, output: null, completed_at: null });
        expect(Date.parse(body.started_at as string)).toBeGreaterThanOrEqual(
          Date.parse(body.created_at),
        );
      } else {
        expect(headers['webhook-id']).toBe(body.id);
        expect(body).toMatchObject({
          ...common,
          status: 'succeeded',
          output: [expect.any(String)],
        });
      }
    }
    const idAt = (path: string) =>
      receiver.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body).id);
    expect(idAt('/completed')).toEqual([completed.id]);
    expect(idAt('/both')).toEqual([started.id, started.id]);
    // Whatever the order of arrival, the start's payload says the run started before it ended.
    for (const path of ['/both', '/default']) {
      const bodies = receiver.requests
        .filter((r) => r.url === path)
        .map((r) => JSON.parse(r.body) as Prediction);
      const start = bodies.find((b) => b.status === 'processing') as Prediction;
      const end = bodies.find((b) => b.status === 'succeeded') as Prediction;
      expect(Date.parse(end.completed_at as string)).toBeGreaterThanOrEqual(
        Date.parse(start.started_at as string),
      );
    }
  }, 30_000);

  it('each prediction billed once: the balance and the usage records agree', async () => {
    // Succeeded: run×2 (one of two outputs), create-wait, wait=1, the webhook ones (3),
    // the canceled one (it was running: charged, as a deleted running task is). Failed: free.
    await until(async () => Math.abs((await balanceOf(apiKey)) - 9.992) < 1e-9, 10_000);
    const answer = await fetch(`${platform.gateway}/api/v3/billings?type=usage&per_page=100`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const records = ((await answer.json()) as { data: { records: { task_id: string }[] } }).data
      .records;
    const ids = records.map((r) => r.task_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(8);
  }, 30_000);

  it('list: newest first, two pages linked by next and previous under baseUrl', async () => {
    const account = await platform.accountWithKey();
    const own = client(account);
    const ids: string[] = [];
    for (let i = 0; i < 23; i++)
      ids.push(
        (
          await own.predictions.create({
            version: SIMULATOR_VERSION,
            input: { prompt: `list ${i}`, duration_ms: 1 },
          })
        ).id,
      );
    const first = await own.predictions.list();
    expect(first.results).toHaveLength(20);
    expect(first.previous).toBeNull();
    expect(first.next).toMatch(new RegExp(`^${baseUrl}/predictions\\?cursor=`));
    const pages: string[][] = [];
    for await (const page of own.paginate(() => own.predictions.list()))
      pages.push(page.map((p: Prediction) => p.id));
    expect(pages.map((p) => p.length)).toEqual([20, 3]);
    expect(pages.flat()).toEqual([...ids].reverse());
    const second = (await (await own.request(first.next as string, { method: 'GET' })).json()) as {
      previous: string;
      results: Prediction[];
    };
    expect(second.previous).toBe(`${baseUrl}/predictions`);
    expect(second.results[0].input).toEqual({ prompt: 'list 2', duration_ms: 1 });
  }, 60_000);
});
