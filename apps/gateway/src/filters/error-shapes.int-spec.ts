import { Logger } from '@nestjs/common';
import { call, RunningGateway, startGateway } from '../test/gateway-harness.util';

describe('gateway error shapes (in-process gateway, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({ BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => gw.close());

  it('/v1/: nested {code, error} for an unknown provider (1401) and insufficient balance (1300)', async () => {
    const provider = await call(`${gw.url}/v1/test/unknown-provider`);
    expect(provider.status).toBe(400);
    expect(provider.body).toEqual({
      code: 400,
      error: {
        code: 1401,
        error:
          "Invalid provider 'nope'. Model slug must have the form {provider_id}/{model_id}/{run_type}",
      },
    });
    const balance = await call(`${gw.url}/v1/test/insufficient`);
    expect(balance.status).toBe(402);
    expect(balance.body).toEqual({
      code: 402,
      error: {
        code: 1300,
        error:
          'Insufficient balance. Current: $0.000, required: $0.001. Please top up and try again.',
      },
    });
  });

  it('/v1/: a string error for validation, naming every bad field', async () => {
    const response = await call(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      body: { count: 0, extra: true },
    });
    expect(response.status).toBe(400);
    const body = response.body as { code: number; error: string };
    expect(body.code).toBe(400);
    expect(typeof body.error).toBe('string');
    expect(body.error).toContain('prompt');
    expect(body.error).toContain('count');
    expect(body.error).toContain('property extra should not exist');
    const array = await call(`${gw.url}/v1/test/echo`, { method: 'POST', body: [1, 2] });
    expect(array.status).toBe(400);
  });

  it('/api/v3/: the envelope with data null', async () => {
    const response = await call(`${gw.url}/api/v3/test/echo`, {
      method: 'POST',
      body: { prompt: 'x' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 400,
      message: expect.stringContaining('count'),
      data: null,
    });
    const notFound = await call(`${gw.url}/api/v3/nothing-here`);
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ code: 404, message: 'Not found', data: null });
  });

  it('chat: {error:{message,type,param}} for handler errors and unknown routes', async () => {
    const notFound = await call(`${gw.url}/v1/chat/nothing-here`);
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({
      error: { message: 'Not found', type: 'not_found_error', param: null },
    });
    const boom = await call(`${gw.url}/v1/chat/test-boom`);
    expect(boom.status).toBe(500);
    expect(boom.body).toEqual({
      error: { message: 'Server error', type: 'server_error', param: null },
    });
  });

  it('unknown route or method: 404 Not found', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing/here'],
      ['DELETE', '/v1/test/insufficient'],
      ['GET', '/'],
      ['PATCH', '/v1/balance-of-nothing'],
    ]) {
      const response = await call(`${gw.url}${path}`, { method });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 404,
        body: { code: 404, error: 'Not found' },
      });
    }
  });

  it('unexpected error: 500 Server error without internals, logged with the request id', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error');
    try {
      const response = await call(`${gw.url}/v1/test/boom`, {
        headers: { 'x-request-id': 'req-boom-1' },
      });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ code: 500, error: 'Server error' });
      expect(response.text).not.toMatch(/secret|hunter2|stack|Error/);
      expect(response.headers.get('x-request-id')).toBe('req-boom-1');
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ request_id: 'req-boom-1', err: expect.any(Error) }),
        expect.stringContaining('req-boom-1'),
      );
      const v3 = await call(`${gw.url}/api/v3/test/boom`);
      expect(v3.body).toEqual({ code: 500, message: 'Server error', data: null });
    } finally {
      logged.mockRestore();
    }
  });

  it('a 500 on a URL carrying a token or ticket logs the URL with [redacted] in their place', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error');
    try {
      const response = await call(
        `${gw.url}/api/v3/test/boom?token=ev1.secret-stream-token&x=1&ticket=secret-ticket`,
      );
      expect(response.status).toBe(500);
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({
          url: '/api/v3/test/boom?token=[redacted]&x=1&ticket=[redacted]',
        }),
        expect.any(String),
      );
      expect(JSON.stringify(logged.mock.calls)).not.toMatch(/secret-stream-token|secret-ticket/);
    } finally {
      logged.mockRestore();
    }
  });

  it('malformed JSON, wrong content type, oversized body: 400/413 with clear messages', async () => {
    const malformed = await call(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      raw: '{"prompt": "x",',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ code: 400, error: 'Malformed JSON in request body' });

    const v3Malformed = await call(`${gw.url}/api/v3/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      raw: 'nope',
    });
    expect(v3Malformed.body).toEqual({
      code: 400,
      message: 'Malformed JSON in request body',
      data: null,
    });

    const poisoned = await call(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      raw: '{"prompt":"x","count":1,"__proto__":{"admin":true}}',
    });
    expect(poisoned.status).toBe(400);

    const wrongType = await call(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      raw: 'prompt=x',
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({
      code: 400,
      error: 'Unsupported Content-Type: expected application/json',
    });

    const noType = await fetch(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      body: Buffer.from('{"prompt":"x","count":1}'),
    });
    expect(noType.status).toBe(400);

    const emptyJson = await call(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(emptyJson.status).toBe(400);
    expect((emptyJson.body as { error: string }).error).toContain('prompt');

    const big = await call(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      body: { prompt: 'x'.repeat(5000), count: 1 },
    });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      code: 413,
      error: 'Request body too large: the limit is 2048 bytes',
    });

    const ok = await call(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      body: { prompt: 'x', count: 2 },
    });
    expect(ok).toMatchObject({ status: 201, body: { prompt: 'x', count: 2 } });
  });
});
