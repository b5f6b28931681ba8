import { FakeReplicate, waitUntil } from '@genhub/testing';
import { AdapterError, RunContext } from '../../contract/model-adapter.types';
import { ReplicateAdapter } from './replicate.adapter';

const FAST = { initialMs: 10, maxMs: 20, factor: 2 };

describe('ReplicateAdapter (fake Replicate HTTP API)', () => {
  let fake: FakeReplicate;
  let adapter: ReplicateAdapter;

  beforeAll(async () => {
    fake = await FakeReplicate.start();
    adapter = new ReplicateAdapter(
      {
        name: 'replicate',
        kind: 'replicate',
        baseUrl: fake.baseUrl,
        apiKey: 'r8_test',
        timeoutMs: 1500,
      },
      FAST,
    );
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.scripts.length = 0;
    fake.requests.length = 0;
  });

  function ctx(
    signal = new AbortController().signal,
    model = 'black-forest-labs/flux-schnell',
    kind = 'text-to-image',
  ): RunContext {
    return {
      taskId: 't1',
      input: { prompt: 'a cat', num_outputs: 1 },
      route: { adapter: 'replicate', upstreamModel: model, priceUnits: 1, kind },
      signal,
      fetchMedia: async () => ({ data: Buffer.alloc(0), contentType: 'image/png' }),
    };
  }

  async function failure(run: Promise<unknown>): Promise<AdapterError> {
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof AdapterError))
      throw new Error(`expected AdapterError, got ${String(error)}`);
    return error;
  }

  it('creates on the model path, polls urls.get until succeeded, answers output URLs', async () => {
    fake.scripts.push({ processingPolls: 2 });
    const result = await adapter.run(ctx());
    expect(result.outputs).toEqual([
      { kind: 'url', url: expect.stringMatching(/\/files\/p\d+\.png$/) },
    ]);
    const [create, ...polls] = fake.requests;
    expect([create.method, create.path, create.headers.authorization]).toEqual([
      'POST',
      '/v1/models/black-forest-labs/flux-schnell/predictions',
      'Bearer r8_test',
    ]);
    expect(JSON.parse(create.body.toString())).toEqual({
      input: { prompt: 'a cat', num_outputs: 1 },
    });
    expect(polls.map((p) => p.method)).toEqual(['GET', 'GET', 'GET']);
    expect(fake.cancels).toEqual([]);
  });

  it('owner/name:version creates on /v1/predictions with the version', async () => {
    await adapter.run(ctx(undefined, 'owner/model:abc123'));
    expect(fake.requests[0].path).toBe('/v1/predictions');
    expect(JSON.parse(fake.requests[0].body.toString())).toMatchObject({ version: 'abc123' });
  });

  it('decodes data: URL outputs and answers text for speech-to-text', async () => {
    fake.scripts.push({
      outcome: { status: 'succeeded', output: 'data:image/png;base64,iVBORw==' },
    });
    expect((await adapter.run(ctx())).outputs).toEqual([
      {
        kind: 'bytes',
        data: Buffer.from('iVBORw==', 'base64'),
        contentType: 'image/png',
        extension: 'png',
      },
    ]);
    fake.scripts.push({ outcome: { status: 'succeeded', output: { transcription: 'hi there' } } });
    expect((await adapter.run(ctx(undefined, 'openai/whisper', 'speech-to-text'))).outputs).toEqual(
      [{ kind: 'text', text: 'hi there' }],
    );
  });

  it.each([
    ['NSFW content detected. Try running it again, or try a different prompt.', 1200],
    ['CUDA out of memory', 1403],
  ])('a failed prediction with error %j → %i (not transient)', async (error, code) => {
    fake.scripts.push({ outcome: { status: 'failed', error } });
    const e = await failure(adapter.run(ctx()));
    expect([e.code, e.transient, e.detail]).toEqual([code, false, error]);
  });

  it('a prediction canceled by the upstream → 5003 transient', async () => {
    fake.scripts.push({ outcome: { status: 'canceled' } });
    const e = await failure(adapter.run(ctx()));
    expect([e.code, e.transient]).toEqual([5003, true]);
  });

  it.each([
    [
      401,
      {
        title: 'Unauthenticated',
        detail: 'You did not pass a valid authentication token',
        status: 401,
      },
      1403,
      false,
    ],
    [
      404,
      { title: 'Not found', detail: 'The requested resource could not be found.', status: 404 },
      1405,
      false,
    ],
    [
      422,
      {
        title: 'Input validation failed',
        detail: '- input.num_outputs: Must be less than or equal to 4',
        status: 422,
      },
      1401,
      false,
    ],
    [
      429,
      { title: 'Too many requests', detail: 'Request was throttled.', status: 429 },
      5003,
      true,
    ],
    [502, { title: 'Bad gateway', status: 502 }, 5003, true],
  ])('create answering HTTP %i → %i (transient %s)', async (status, body, code, transient) => {
    fake.scripts.push({ create: { kind: 'fail', status, body } });
    const e = await failure(adapter.run(ctx()));
    expect([e.code, e.transient]).toEqual([code, transient]);
  });

  it('a poll that hangs past the per-request limit → 5004, and the prediction is canceled', async () => {
    fake.scripts.push({ poll: { kind: 'hang' } });
    const e = await failure(adapter.run(ctx()));
    expect([e.code, e.transient]).toEqual([5004, true]);
    expect(fake.cancels).toEqual([expect.stringMatching(/^\/v1\/predictions\/p\d+\/cancel$/)]);
  });

  it('an abort while processing cancels the prediction upstream and rethrows the reason', async () => {
    fake.scripts.push({ processingPolls: 1000 });
    const controller = new AbortController();
    const run = adapter.run(ctx(controller.signal));
    await waitUntil(() => fake.requests.length >= 3);
    const reason = new Error('deleted');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    await waitUntil(() => fake.cancels.length === 1);
    const id = /p\d+/.exec(fake.cancels[0])?.[0] as string;
    expect(fake.predictions.get(id)?.canceled).toBe(true);
    expect(fake.requests.find((r) => r.path.endsWith('/cancel'))?.headers.authorization).toBe(
      'Bearer r8_test',
    );
  });

  it('refuses poll URLs outside the base URL (our key would go there)', async () => {
    const other = new ReplicateAdapter(
      {
        name: 'r',
        kind: 'replicate',
        baseUrl: fake.baseUrl.replace('127.0.0.1', 'localhost'),
        timeoutMs: 1500,
      },
      FAST,
    );
    const e = await failure(other.run(ctx()));
    expect([e.code, e.detail]).toEqual([5003, 'upstream answered a URL outside its base URL']);
  });
});
