import { FakeOpenAi, TINY_PNG, openAiError, tinyWav, waitUntil } from '@genhub/testing';
import { AdapterError, RunContext } from '../../contract/model-adapter.types';
import { OpenAiAdapter } from './openai.adapter';
import { openAiImageSize } from './openai-image-size.util';

describe('OpenAiAdapter (fake OpenAI-compatible upstream)', () => {
  let fake: FakeOpenAi;
  let adapter: OpenAiAdapter;
  const fetched: string[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAi.start();
    adapter = new OpenAiAdapter({
      name: 'openai',
      kind: 'openai',
      baseUrl: fake.baseUrl,
      apiKey: 'sk-test',
      timeoutMs: 1500, // generous: a loaded CI machine must not turn a fake's answer into 5004
    });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.faults.length = 0;
    fake.requests.length = 0;
  });

  function ctx(
    kind: string,
    input: Record<string, unknown>,
    signal = new AbortController().signal,
    model = 'gpt-image-1',
  ): RunContext {
    return {
      taskId: 't1',
      input,
      route: { adapter: 'openai', upstreamModel: model, priceUnits: 1, kind },
      signal,
      fetchMedia: async (url) => {
        fetched.push(url);
        if (url.includes('missing')) throw new AdapterError(1402, 'media URL answered HTTP 404');
        return { data: tinyWav(), contentType: 'audio/wav' };
      },
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

  it('text-to-image: posts the documented body and decodes b64_json into PNG bytes', async () => {
    const result = await adapter.run(
      ctx('text-to-image', { prompt: 'a cat', num_outputs: 2, aspect_ratio: '16:9' }),
    );
    expect(result.outputs).toEqual([
      { kind: 'bytes', data: TINY_PNG, contentType: 'image/png', extension: 'png' },
      { kind: 'bytes', data: TINY_PNG, contentType: 'image/png', extension: 'png' },
    ]);
    const [req] = fake.requests;
    expect([req.method, req.path, req.headers.authorization]).toEqual([
      'POST',
      '/v1/images/generations',
      'Bearer sk-test',
    ]);
    expect(JSON.parse(req.body.toString())).toEqual({
      model: 'gpt-image-1',
      prompt: 'a cat',
      n: 2,
      size: '1536x1024',
      output_format: 'png',
    });
  });

  it('text-to-image on dall-e asks for b64_json and maps sizes per model', async () => {
    await adapter.run(
      ctx('text-to-image', { prompt: 'p', aspect_ratio: '9:16' }, undefined, 'dall-e-3'),
    );
    expect(JSON.parse(fake.requests[0].body.toString())).toMatchObject({
      response_format: 'b64_json',
      size: '1024x1792',
    });
    expect(openAiImageSize('dall-e-2', '1:1', '512')).toBe('512x512');
    expect(openAiImageSize('gpt-image-1', '3:4')).toBe('1024x1536');
  });

  it('text-to-speech: answers the audio bytes as WAV', async () => {
    const result = await adapter.run(
      ctx('text-to-speech', { text: 'hello', voice: 'nova', speed: 1.5 }),
    );
    expect(result.outputs).toEqual([
      { kind: 'bytes', data: tinyWav(), contentType: 'audio/wav', extension: 'wav' },
    ]);
    expect(JSON.parse(fake.requests[0].body.toString())).toEqual({
      model: 'gpt-image-1',
      input: 'hello',
      voice: 'nova',
      response_format: 'wav',
      speed: 1.5,
    });
  });

  it('speech-to-text: downloads audio_url, posts multipart, outputs the text', async () => {
    const result = await adapter.run(
      ctx(
        'speech-to-text',
        { audio_url: 'https://x/a.wav', language: 'en' },
        undefined,
        'whisper-1',
      ),
    );
    expect(result.outputs).toEqual([{ kind: 'text', text: fake.transcript }]);
    expect(fetched).toContain('https://x/a.wav');
    const req = fake.requests[0];
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = req.body.toString('latin1');
    expect(body).toContain('name="model"\r\n\r\nwhisper-1');
    expect(body).toContain('name="language"\r\n\r\nen');
    expect(body).toContain('RIFF');
    expect(
      (await failure(adapter.run(ctx('speech-to-text', { audio_url: 'https://x/missing' })))).code,
    ).toBe(1402);
  });

  it.each([
    [
      400,
      openAiError(
        'Your request was rejected by the safety system',
        'image_generation_user_error',
        null,
        'moderation_blocked',
      ),
      1200,
      false,
    ],
    [
      400,
      openAiError('Content policy', 'invalid_request_error', null, 'content_policy_violation'),
      1200,
      false,
    ],
    [
      400,
      openAiError("Invalid value: '7x7'", 'invalid_request_error', 'size', 'invalid_value'),
      1401,
      false,
    ],
    [
      400,
      openAiError(
        'Missing prompt',
        'invalid_request_error',
        'prompt',
        'missing_required_parameter',
      ),
      1400,
      false,
    ],
    [400, openAiError('Bad request', 'invalid_request_error', null, null), 1400, false],
    [
      401,
      openAiError('Incorrect API key', 'invalid_request_error', null, 'invalid_api_key'),
      1403,
      false,
    ],
    [403, openAiError('Forbidden', 'invalid_request_error', null, null), 1403, false],
    [
      404,
      openAiError('The model does not exist', 'invalid_request_error', null, 'model_not_found'),
      1405,
      false,
    ],
    [429, openAiError('Rate limit', 'requests', null, 'rate_limit_exceeded'), 5003, true],
    [500, openAiError('Server error', 'server_error', null, null), 5003, true],
    [503, 'not json', 5003, true],
  ])('HTTP %i %j → %i (transient %s)', async (status, body, code, transient) => {
    fake.faults.push({ kind: 'fail', status, body });
    const error = await failure(adapter.run(ctx('text-to-image', { prompt: 'p' })));
    expect([error.code, error.transient]).toEqual([code, transient]);
  });

  it('shows upstream text only for input problems', async () => {
    fake.faults.push({
      kind: 'fail',
      status: 400,
      body: openAiError("Invalid value: '7x7'", 'x', 'size', 'invalid_value'),
    });
    expect((await failure(adapter.run(ctx('text-to-image', { prompt: 'p' })))).detail).toBe(
      "Invalid value: '7x7'",
    );
    fake.faults.push({
      kind: 'fail',
      status: 500,
      body: openAiError('internal stack trace', 'server_error', null, null),
    });
    expect((await failure(adapter.run(ctx('text-to-image', { prompt: 'p' })))).detail).toBe(
      'upstream answered HTTP 500',
    );
  });

  it('connection refused → 5003 transient', async () => {
    const down = new OpenAiAdapter({
      name: 'x',
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:1/v1',
      timeoutMs: 1000,
    });
    const error = await failure(down.run(ctx('text-to-image', { prompt: 'p' })));
    expect([error.code, error.transient]).toEqual([5003, true]);
  });

  it('an upstream that hangs past the per-request limit → 5004 transient', async () => {
    fake.faults.push({ kind: 'hang' });
    const started = Date.now();
    const error = await failure(adapter.run(ctx('text-to-image', { prompt: 'p' })));
    expect([error.code, error.transient]).toEqual([5004, true]);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('an abort mid-run closes the upstream request and rethrows the reason', async () => {
    fake.faults.push({ kind: 'hang' });
    const controller = new AbortController();
    const run = adapter.run(ctx('text-to-image', { prompt: 'p' }, controller.signal));
    await waitUntil(() => fake.requests.length === 1);
    const reason = new Error('deleted');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    await waitUntil(() => fake.requests[0].closedEarly);
    expect(fake.requests[0].closedEarly).toBe(true);
  });

  it('refuses a model kind it cannot run (1405)', async () => {
    expect((await failure(adapter.run(ctx('image-to-video', { prompt: 'p' })))).code).toBe(1405);
  });
});
