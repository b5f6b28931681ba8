import { FakeFal, waitUntil } from '@genhub/testing';
import { AdapterError, RunContext } from '../../contract/model-adapter.types';
import { FalAdapter } from './fal.adapter';

const FAST = { initialMs: 10, maxMs: 20, factor: 2 };

describe('FalAdapter (fake fal queue API)', () => {
  let fake: FakeFal;
  let adapter: FalAdapter;

  beforeAll(async () => {
    fake = await FakeFal.start();
    adapter = new FalAdapter(
      { name: 'fal', kind: 'fal', baseUrl: fake.baseUrl, apiKey: 'fal-key', timeoutMs: 1500 },
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
    kind = 'text-to-image',
    input: Record<string, unknown> = { prompt: 'a cat', num_outputs: 2, aspect_ratio: '16:9' },
  ): RunContext {
    return {
      taskId: 't1',
      input,
      route: { adapter: 'fal', upstreamModel: 'fal-ai/flux/dev', priceUnits: 1, kind },
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

  it('submits, polls IN_QUEUE → IN_PROGRESS → COMPLETED, reads the result, answers image URLs', async () => {
    fake.scripts.push({ pendingPolls: 2 });
    const progress: number[] = [];
    const result = await adapter.run({ ...ctx(), progress: (f) => progress.push(f) });
    expect(result.outputs).toEqual([
      { kind: 'url', url: expect.stringMatching(/\/files\/r\d+\.png$/) },
    ]);
    const paths = fake.requests.map((r) => `${r.method} ${r.path.replace(/r\d+/, 'ID')}`);
    expect(paths).toEqual([
      'POST /fal-ai/flux/dev',
      'GET /fal-ai/flux/requests/ID/status',
      'GET /fal-ai/flux/requests/ID/status',
      'GET /fal-ai/flux/requests/ID/status',
      'GET /fal-ai/flux/requests/ID',
    ]);
    expect(fake.requests[0].headers.authorization).toBe('Key fal-key');
    expect(JSON.parse(fake.requests[0].body.toString())).toEqual({
      prompt: 'a cat',
      num_images: 2,
      image_size: 'landscape_16_9',
    });
    expect(progress).toEqual([0, 0.5]);
  });

  it('reads speech-to-text results as text', async () => {
    fake.scripts.push({ output: { text: 'hello', chunks: [] } });
    expect(
      (await adapter.run(ctx(undefined, 'speech-to-text', { audio_url: 'https://x/a.wav' })))
        .outputs,
    ).toEqual([{ kind: 'text', text: 'hello' }]);
  });

  it('an empty result is an upstream fault (5003), not a success', async () => {
    fake.scripts.push({ output: { images: [] } });
    expect((await failure(adapter.run(ctx()))).code).toBe(5003);
  });

  const detail = (type: string, msg: string, loc = ['body', 'prompt']) => ({
    detail: [{ loc, msg, type }],
  });
  it.each([
    [
      'result',
      422,
      detail(
        'content_policy_violation',
        'The content could not be processed because it contained material flagged by a content checker.',
      ),
      1200,
      false,
    ],
    [
      'result',
      422,
      detail('file_download_error', 'Failed to download the file.', ['body', 'image_url']),
      1402,
      false,
    ],
    ['submit', 422, detail('missing', 'Field required'), 1400, false],
    [
      'submit',
      422,
      detail('greater_than_equal', 'Input should be greater than or equal to 1', [
        'body',
        'num_images',
      ]),
      1401,
      false,
    ],
    ['submit', 401, { detail: 'Unauthorized' }, 1403, false],
    ['submit', 404, { detail: 'Application not found' }, 1405, false],
    ['submit', 429, { detail: 'Too many requests' }, 5003, true],
    ['result', 500, { detail: 'Internal error' }, 5003, true],
    ['status', 503, { detail: 'Unavailable' }, 5003, true],
  ] as const)(
    '%s answering HTTP %i → %i (transient %s)',
    async (step, status, body, code, transient) => {
      fake.scripts.push({ [step]: { kind: 'fail', status, body } });
      const e = await failure(adapter.run(ctx()));
      expect([e.code, e.transient]).toEqual([code, transient]);
    },
  );

  it('a status poll that hangs past the per-request limit → 5004, and the request is canceled', async () => {
    fake.scripts.push({ status: { kind: 'hang' } });
    const e = await failure(adapter.run(ctx()));
    expect([e.code, e.transient]).toEqual([5004, true]);
    expect(fake.cancels).toEqual([
      expect.stringMatching(/^\/fal-ai\/flux\/requests\/r\d+\/cancel$/),
    ]);
  });

  it('an abort while IN_PROGRESS sends PUT cancel_url and rethrows the reason', async () => {
    fake.scripts.push({ pendingPolls: 1000 });
    const controller = new AbortController();
    const run = adapter.run(ctx(controller.signal));
    await waitUntil(() => fake.requests.length >= 3);
    const reason = new Error('deleted');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    await waitUntil(() => fake.cancels.length === 1);
    const cancel = fake.requests.find((r) => r.method === 'PUT');
    expect(cancel?.headers.authorization).toBe('Key fal-key');
  });
});
