import { createGenhubClient, GenhubRequestError, waitForTaskResult } from './genhub.client';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

function fakeFetch(answers: Answer[]) {
  const requests: Request[] = [];
  const fetch = async (input: Request) => {
    requests.push(input);
    const answer = answers.shift();
    if (!answer) throw new Error('unexpected request');
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };
  return { fetch, requests };
}

const completed = {
  id: 't1',
  model: 'local/simulator/test',
  status: 'completed',
  code: 0,
  outputs: ['https://cdn.example.com/outputs/t1/0.png'],
  timings: { queue_wait: 1, worker_init: 2, api_call: 3, save: 4, run_overhead: 5, total: 15 },
  error: null,
  created_at: '2025-01-31T12:00:00.000',
};

describe('createGenhubClient', () => {
  it('sends the bearer key, the slug path, the query and the JSON body', async () => {
    const { fetch, requests } = fakeFetch([
      { status: 200, body: { id: 't1', status: 'created', estimated_duration: null } },
    ]);
    const client = createGenhubClient({ baseUrl: 'http://gw.test/', apiKey: 'sk-1', fetch });
    const { data } = await client.POST('/v1/local/simulator/test', {
      body: { prompt: 'a cat' },
      params: { query: { webhook: 'https://hook.test/a?b=1', prefix: 'x/y' } },
    });
    expect(data).toEqual({ id: 't1', status: 'created', estimated_duration: null });
    const [request] = requests;
    expect(request.method).toBe('POST');
    expect(request.headers.get('authorization')).toBe('Bearer sk-1');
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe('http://gw.test/v1/local/simulator/test');
    expect(url.searchParams.get('webhook')).toBe('https://hook.test/a?b=1');
    expect(url.searchParams.get('prefix')).toBe('x/y');
    expect(await request.json()).toEqual({ prompt: 'a cat' });
  });

  it('returns a /v1 error body as `error`', async () => {
    const body = { code: 401, error: 'Invalid or revoked API key' };
    const { fetch } = fakeFetch([{ status: 401, body }]);
    const client = createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'bad', fetch });
    const answer = await client.GET('/v1/balance');
    expect(answer.data).toBeUndefined();
    expect(answer.error).toEqual(body);
    expect(answer.response.status).toBe(401);
  });
});

describe('waitForTaskResult', () => {
  it('polls until the task is terminal, honouring Retry-After', async () => {
    const processing = { status: 200, body: { id: 't1', status: 'processing' } };
    const { fetch, requests } = fakeFetch([
      { ...processing, headers: { 'retry-after': '0' } },
      processing,
      { status: 200, body: completed },
    ]);
    const client = createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'k', fetch });
    const result = await waitForTaskResult(client, 't1', { intervalMs: 5 });
    expect(result).toEqual(completed);
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
      '/v1/requests/t1',
      '/v1/requests/t1',
      '/v1/requests/t1',
    ]);
  });

  it('resolves a failed task (a failure is not an exception) and throws on HTTP errors', async () => {
    const failed = {
      id: 't2',
      model: 'local/simulator/test',
      status: 'failed',
      code: 1403,
      outputs: [],
      error: 'Error during processing',
      created_at: '2025-01-31T12:00:00.000',
    };
    const { fetch } = fakeFetch([
      { status: 200, body: failed },
      { status: 404, body: { code: 404, error: 'Not found' } },
    ]);
    const client = createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'k', fetch });
    await expect(waitForTaskResult(client, 't2')).resolves.toEqual(failed);
    const missing = waitForTaskResult(client, 'nope');
    await expect(missing).rejects.toBeInstanceOf(GenhubRequestError);
  });

  it('gives up after the time-out', async () => {
    const { fetch } = fakeFetch([
      { status: 200, body: { id: 't3', status: 'processing' }, headers: { 'retry-after': '3' } },
    ]);
    const client = createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'k', fetch });
    await expect(waitForTaskResult(client, 't3', { timeoutMs: 1000 })).rejects.toThrow(
      'task t3 not finished after 1000 ms',
    );
  });
});
