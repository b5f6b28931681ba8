import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { readOpenApiDocumentText } from '@genhub/contracts/server';
import { responseFamily } from '../filters/response-family.util';
import {
  call,
  createAccountWithKey,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

/**
 * Hostile input (issue 17): characters PostgreSQL cannot store, forbidden
 * keys, and the transport's own refusals (414, 431, bad URL encoding, unknown
 * method) all answer in the family's documented shape with a 4xx, and nothing
 * is written or charged. A property-based run over every public route ends it.
 */

/** Whether a body is the documented error shape of the URL's family for this status. */
function inFamilyShape(path: string, status: number, body: unknown): boolean {
  const b = body as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object') return false;
  const standard =
    b.code === status &&
    (typeof b.error === 'string' ||
      (typeof b.error === 'object' &&
        b.error !== null &&
        typeof (b.error as { error?: unknown }).error === 'string')) &&
    Object.keys(b).length === 2;
  switch (responseFamily(path)) {
    case 'v3':
      return b.code === status && typeof b.message === 'string' && b.data === null;
    case 'chat': {
      const error = b.error as Record<string, unknown> | undefined;
      const chat =
        typeof error === 'object' &&
        error !== null &&
        typeof error.message === 'string' &&
        typeof error.type === 'string' &&
        'param' in error;
      // Authentication refusals use {code, error}
      // (docs/interface.md, "Chat authentication refusals").
      return chat || standard;
    }
    case 'media': {
      // The chat shape plus OpenAI's `code` (decision 0136); authentication as on chat.
      const error = b.error as Record<string, unknown> | undefined;
      const media =
        typeof error === 'object' &&
        error !== null &&
        typeof error.message === 'string' &&
        typeof error.type === 'string' &&
        'param' in error &&
        typeof error.code === 'string';
      return media || standard;
    }
    case 'replicate':
      // Replicate's problem object (decision 0137), authentication refusals included.
      return (
        typeof b.title === 'string' &&
        typeof b.detail === 'string' &&
        b.status === status &&
        Object.keys(b).length === 3
      );
    default:
      return standard;
  }
}

/**
 * Percent-encoding that also carries lone surrogates (as their 3-byte WTF-8
 * form, which is not valid UTF-8): what a hostile client can put in a URL.
 */
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0xd800 || code > 0xdfff) out += encodeURIComponent(char);
    else
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
  }
  return out;
}

/** One request on a raw socket (what fetch would not send); the answer's status and JSON body. */
function rawRequest(url: string, request: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let received = '';
    socket.setTimeout(10_000, () => reject(new Error('raw request: no answer in 10 s')));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: body ? JSON.parse(body) : undefined });
    });
  });
}

describe('hostile input (in-process gateway, PostgreSQL + Redis)', () => {
  jest.setTimeout(120_000);
  let gw: RunningGateway;
  let dir: string;
  let accountId: string;
  let auth: Record<string, string>;

  /** What a refusal must leave untouched: the account's tasks, reservations and balance. */
  async function ledger() {
    const [row]: unknown[] = await gw.app.get(DataSource).query(
      `SELECT (SELECT count(*)::int FROM tasks.tasks WHERE account_id = $1) AS tasks,
              (SELECT count(*)::int FROM billing.reservations WHERE account_id = $1) AS reservations,
              (SELECT row(balance_units, reserved_units)::text FROM billing.balances
                WHERE account_id = $1) AS balance`,
      [accountId],
    );
    return row;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genhub-hostile-'));
    gw = await startGateway({ STORAGE_DIR: join(dir, 'objects') });
    const created = await createAccountWithKey(gw.url, 5);
    accountId = created.accountId;
    auth = { authorization: `Bearer ${created.key}` };
  });
  afterAll(async () => {
    await gw.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('NUL and lone surrogates in a body: 400 naming the field, nothing written', async () => {
    const before = await ledger();
    const nul = await call(`${gw.url}/v1/local/simulator/test`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      raw: '{"prompt":"a\\u0000b"}',
    });
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({
      code: 400,
      error: 'prompt contains a character that cannot be accepted (NUL or an unpaired surrogate)',
    });
    const surrogate = await call(`${gw.url}/api/v3/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      raw: '{"prompt":"ok","count":1,"extra":[{"deep":"\\ud800x"}]}',
    });
    expect(surrogate.body).toEqual({
      code: 400,
      message: expect.stringMatching(/^extra\[0\]\.deep contains a character/),
      data: null,
    });
    const chat = await call(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      raw: '{"model":"local/chat","messages":[{"role":"user","content":"hi\\u0000"}]}',
    });
    expect(chat.status).toBe(400);
    expect(chat.body).toEqual({
      error: {
        message: expect.stringMatching(/^messages\[0\]\.content contains a character/),
        type: 'invalid_request_error',
        param: 'messages[0].content',
      },
    });
    // A paired surrogate (an emoji) is ordinary text, and an escaped backslash is not a NUL.
    const fine = await call(`${gw.url}/v1/test/echo`, {
      method: 'POST',
      raw: '{"prompt":"\\ud83d\\ude00 \\\\u0000","count":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(fine.status).toBe(201);
    expect(await ledger()).toEqual(before);
  });

  it('NUL in a query value or a path parameter: 400 naming it, nothing written', async () => {
    const before = await ledger();
    const webhook = await call(`${gw.url}/v1/local/simulator/test?webhook=http://127.0.0.1:9/%00`, {
      method: 'POST',
      headers: auth,
      body: { prompt: 'x' },
    });
    expect(webhook.status).toBe(400);
    expect(webhook.body).toEqual({
      code: 400,
      error: 'webhook contains a character that cannot be accepted (NUL or an unpaired surrogate)',
    });
    const id = await call(`${gw.url}/v1/requests/%00`, { headers: auth });
    expect(id.status).toBe(400);
    expect((id.body as { error: string }).error).toMatch(/^request_id contains a character/);
    expect(await ledger()).toEqual(before);
  });

  it('a __proto__ key: 400 saying the key is forbidden, not that the JSON is malformed', async () => {
    const poisoned = await call(`${gw.url}/v1/local/simulator/test`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      raw: '{"prompt":"x","__proto__":{"admin":true}}',
    });
    expect(poisoned.status).toBe(400);
    expect(poisoned.body).toEqual({
      code: 400,
      error:
        'Forbidden key in request body: "__proto__" and "constructor.prototype" are not accepted',
    });
  });

  it("the framework's own refusals answer in the family shape", async () => {
    const longSegment = 'm'.repeat(101);
    const slug = await call(`${gw.url}/v1/local/${longSegment}/test`, {
      method: 'POST',
      headers: auth,
      body: { prompt: 'x' },
    });
    expect(slug.status).toBe(414);
    expect(slug.body).toEqual({
      code: 414,
      error: 'Request URL too long: a path segment is over 100 characters',
    });
    expect(slug.headers.get('x-request-id')).toBeTruthy();
    const v3Slug = await call(`${gw.url}/api/v3/predictions/${longSegment}/webhook-deliveries`, {
      headers: auth,
    });
    expect(v3Slug.body).toEqual({ code: 414, message: expect.any(String), data: null });

    const badUrl = await call(`${gw.url}/v1/requests/%00%ff`, { headers: auth });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body).toEqual({
      code: 400,
      error: 'Malformed URL: invalid percent-encoding in the path',
    });

    const longQuery = await call(`${gw.url}/api/v3/models?search=${'q'.repeat(60_000)}`, {
      headers: auth,
    });
    expect(longQuery.status).toBe(431);
    expect(longQuery.body).toEqual({
      code: 431,
      message: 'Request header fields too large: the request line and headers exceed 16 KB',
      data: null,
    });
    const longHeader = await call(`${gw.url}/v1/balance`, {
      headers: { ...auth, 'x-filler': 'h'.repeat(60_000) },
    });
    expect(longHeader.status).toBe(431);
    expect(inFamilyShape('/v1/balance', 431, longHeader.body)).toBe(true);

    const unknownMethod = await rawRequest(
      gw.url,
      'FROB /api/v3/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(unknownMethod).toEqual({
      status: 400,
      body: { code: 400, message: 'Malformed HTTP request', data: null },
    });
    const badHeader = await rawRequest(
      gw.url,
      'GET /v1/balance HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
    );
    expect(badHeader).toEqual({
      status: 400,
      body: { code: 400, error: 'Malformed HTTP request' },
    });
  });

  it('property: no input to a public route gets a 5xx, a refusal is in its family shape and charges nothing', async () => {
    const document = JSON.parse(readOpenApiDocumentText()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(document.paths)
      .filter(([path]) => !path.startsWith('/admin/'))
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((method) => ['get', 'post', 'delete'].includes(method))
          .map((method) => ({ method: method.toUpperCase(), path })),
      );
    expect(routes.length).toBeGreaterThan(10);

    const hostileText = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('\0', 'a\0b', '\ud800', '\udfff\ud800', '__proto__', '%', '%zz', '../..'),
      fc.constantFrom('x'.repeat(5000), '-1', '1e309', 'NaN', 'true', 'null', '[]', '{}'),
      fc.integer().map(String),
    );
    const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        hostileText,
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(
          fc.oneof(
            hostileText,
            fc.constantFrom('prompt', 'model', 'messages', 'stream', 'webhook', 'images'),
          ),
          tie('value'),
          { maxKeys: 5 },
        ),
      ),
    })).value;
    const body = fc.oneof(
      jsonish.map((value) => JSON.stringify(value) ?? 'null'),
      fc.string(), // mostly not JSON at all
      fc.constantFrom('{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '{"a":', ''),
    );
    // URL parts as sent: hostile text percent-encoded, or raw (malformed) encodings.
    const urlText = fc.oneof(
      hostileText.map(percentEncode),
      fc.constantFrom('%00', '%ff', '%ED%A0%80', '%', '%zz', '%C0%AF', '..', ''),
    );
    const query = fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('webhook', 'sync', 'page', 'per_page', 'type', 'start_date', 'period'),
          urlText,
        ),
        urlText,
      ),
      { maxLength: 3 },
    );
    // What an HTTP client can put in a header value: visible ASCII and spaces.
    const headerValue = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      maxLength: 80,
    });
    const sample = fc.record({
      route: fc.constantFrom(...routes),
      param: urlText,
      query,
      body,
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'multipart/form-data',
        'application/x-www-form-urlencoded',
      ),
      idempotencyKey: fc.option(headerValue),
      authorized: fc.boolean(),
    });

    let baseline = await ledger();
    await fc.assert(
      fc.asyncProperty(sample, async (s) => {
        const path = s.route.path.replace(/\{[^}]+\}/g, () => s.param);
        const search = s.query.map(([key, value]) => `${key}=${value}`).join('&');
        const headers: Record<string, string> = { 'content-type': s.contentType };
        if (s.authorized) Object.assign(headers, auth);
        if (s.idempotencyKey !== null) headers['idempotency-key'] = s.idempotencyKey;
        const answer = await call(`${gw.url}${path}${search ? `?${search}` : ''}`, {
          method: s.route.method,
          headers,
          raw: s.route.method === 'POST' ? s.body : undefined,
        });
        expect(answer.status).toBeLessThan(500);
        if (answer.status >= 400) {
          expect({
            path,
            status: answer.status,
            // The family of the path the server received: the client resolves `..` segments.
            shaped: inFamilyShape(new URL(path, gw.url).pathname, answer.status, answer.body),
          }).toEqual({
            path,
            status: answer.status,
            shaped: true,
          });
          expect(await ledger()).toEqual(baseline);
        } else baseline = await ledger(); // an accepted request may rightly reserve
      }),
      // A fixed seed keeps CI reproducible; FUZZ_SEED=<n> FUZZ_RUNS=<n> explore further.
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 300),
        seed: Number(process.env.FUZZ_SEED ?? 20261124),
      },
    );
  });
});
