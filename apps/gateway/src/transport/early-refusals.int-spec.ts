import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MB } from '@genhub/storage';
import { createAccountWithKey, RunningGateway, startGateway } from '../test/gateway-harness.util';

/**
 * Refusals the gateway sends before it has read the request body (issue 17):
 * whatever the client, it reads the status and the JSON error, and the
 * connection afterwards is either reusable or cleanly closed — never a hang,
 * never a reset under the client's feet.
 */
const BOUNDARY = '----genhub-early-refusal';
// sharp ships no types for its CommonJS entry.
const sharp = require('sharp') as (options: object) => { png(): { toBuffer(): Promise<Buffer> } };

/** A multipart upload of one `file` part: `header` then zero bytes up to `size`. */
function multipartBody(size: number, header: Buffer): Buffer {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const file = Buffer.alloc(size);
  header.copy(file);
  return Buffer.concat([head, file, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

interface Refusal {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  status: number;
  message: RegExp;
}

interface RawExchange {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** What became of the connection when a second request was sent on it. */
  next: 'answered' | 'closed';
  nextStatus?: number;
}

/** Reads one HTTP/1.1 response (Content-Length framed) from the socket's accumulated bytes. */
function parseResponse(
  buffer: Buffer,
): { status: number; headers: Record<string, string>; body: string; rest: Buffer } | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  if (status === 100) return { status, headers, body: '', rest: buffer.subarray(end + 4) };
  const length = Number(headers['content-length'] ?? 0);
  if (buffer.length < end + 4 + length) return undefined;
  return {
    status,
    headers,
    body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
    rest: buffer.subarray(end + 4 + length),
  };
}

/**
 * One keep-alive socket: the refused request (body written as fast as the
 * server takes it, write errors ignored), its answer, then `GET /health` on
 * the same socket. Fails the test by timing out if either answer never comes.
 */
async function rawExchange(url: string, refusal: Refusal): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  let received: Buffer = Buffer.alloc(0);
  let closed = false;
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  const until = async <T>(take: () => T | undefined, what: string): Promise<T> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = take();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`raw socket: no ${what} within 15 s`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  await new Promise<void>((resolve) => socket.once('connect', resolve));

  const head =
    `${refusal.method} ${refusal.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
    Object.entries({ ...refusal.headers, 'content-length': String(refusal.body.length) })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n';
  socket.write(head);
  // The body in 64 KB writes, stopping if the server closes (it may, after answering).
  void (async () => {
    for (let offset = 0; offset < refusal.body.length && !socket.destroyed; offset += 65536) {
      if (!socket.write(refusal.body.subarray(offset, offset + 65536)))
        await new Promise<void>((resolve) => {
          socket.once('drain', resolve);
          waiters.push(resolve);
        });
    }
  })();

  const first = await until(() => {
    let parsed = parseResponse(received);
    while (parsed?.status === 100) parsed = parseResponse(parsed.rest);
    if (parsed) received = parsed.rest;
    return parsed;
  }, 'answer to the refused request');

  // The same socket again, once the body has gone (or the server has closed).
  await until(() => (socket.writableLength === 0 || closed ? true : undefined), 'flushed body');
  // Sent even on a connection announced as closing: it must end, not hang.
  if (!closed) socket.write(`GET /health HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  const next = await until(() => {
    const parsed = parseResponse(received);
    if (parsed) return { next: 'answered' as const, nextStatus: parsed.status };
    return closed ? { next: 'closed' as const } : undefined;
  }, 'answer or close after the refusal');
  socket.destroy();
  return { status: first.status, headers: first.headers, body: JSON.parse(first.body), ...next };
}

/** curl, with or without `Expect: 100-continue`: status and body of the answer. */
function curl(
  url: string,
  refusal: Refusal,
  file: string,
  expectContinue: boolean,
): Promise<{ status: number; body: unknown; exit: number | null }> {
  const args = ['-sS', '-o', '-', '-w', '\n%{http_code}', '-X', refusal.method, '--max-time', '30'];
  for (const [k, v] of Object.entries(refusal.headers)) args.push('-H', `${k}: ${v}`);
  args.push('-H', expectContinue ? 'Expect: 100-continue' : 'Expect:');
  args.push('--data-binary', `@${file}`, `${url}${refusal.path}`);
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exit) => {
      const cut = out.lastIndexOf('\n');
      let body: unknown;
      try {
        body = JSON.parse(out.slice(0, cut));
      } catch {
        body = out.slice(0, cut);
      }
      resolve({ status: Number(out.slice(cut + 1)), body, exit });
    });
  });
}

describe('refusals before the body is read (in-process gateway)', () => {
  jest.setTimeout(60_000);
  let gw: RunningGateway;
  let key: string;
  let dir: string;
  let refusals: Refusal[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genhub-early-refusals-'));
    gw = await startGateway({ STORAGE_DIR: join(dir, 'objects') });
    ({ key } = await createAccountWithKey(gw.url));
    const auth = { authorization: `Bearer ${key}` };
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const multipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    refusals = [
      {
        name: 'JSON body over BODY_LIMIT_BYTES',
        method: 'POST',
        path: '/v1/local/simulator/test',
        headers: { ...auth, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ prompt: 'x'.repeat(5 * MB) })),
        status: 413,
        message: /Request body too large/,
      },
      {
        name: 'image upload over its 20 MB limit',
        method: 'POST',
        path: '/api/v3/files/upload',
        headers: { ...auth, ...multipart },
        body: multipartBody(21 * MB, png),
        status: 413,
        message: /File too large/,
      },
      {
        name: 'upload of an unsupported type',
        method: 'POST',
        path: '/api/v3/files/upload',
        headers: { ...auth, ...multipart },
        body: multipartBody(8 * MB, Buffer.from('not a media file')),
        status: 400,
        message: /Unsupported/i,
      },
      {
        name: 'upload with a revoked-looking key',
        method: 'POST',
        path: '/api/v3/files/upload',
        headers: { authorization: 'Bearer gh_nope', ...multipart },
        body: multipartBody(8 * MB, png),
        status: 401,
        message: /Invalid or revoked API key/,
      },
    ];
  });
  afterAll(async () => {
    await gw.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('Node fetch (undici, keep-alive) reads each refusal, then the next request on the pool is answered', async () => {
    for (const refusal of refusals) {
      const response = await fetch(`${gw.url}${refusal.path}`, {
        method: refusal.method,
        headers: refusal.headers,
        body: refusal.body,
      });
      const body = (await response.clone().json()) as { message?: string; error?: string };
      expect({ name: refusal.name, status: response.status, body }).toEqual({
        body: refusal.status === response.status ? expect.anything() : {},
        name: refusal.name,
        status: refusal.status,
      });
      expect(body.message ?? body.error).toMatch(refusal.message);
      const next = await fetch(`${gw.url}/health`, { signal: AbortSignal.timeout(10_000) });
      expect(next.status).toBe(200);
    }
  });

  it('a raw keep-alive socket reads each refusal; the connection is then reusable or cleanly closed', async () => {
    for (const refusal of refusals) {
      const exchange = await rawExchange(gw.url, refusal);
      expect({ name: refusal.name, status: exchange.status }).toEqual({
        name: refusal.name,
        status: refusal.status,
      });
      const body = exchange.body as { message?: string; error?: string };
      expect(body.message ?? body.error).toMatch(refusal.message);
      // Every refusal here is sent before its body was read: the connection says it
      // closes, and then does, even though another request was sent on it.
      expect(exchange.headers.connection).toBe('close');
      expect(exchange.next).toBe('closed');
    }
  });

  it('curl, with and without Expect: 100-continue, reads each refusal', async () => {
    for (const refusal of refusals) {
      const file = join(dir, 'body.bin');
      await writeFile(file, refusal.body);
      for (const expectContinue of [false, true]) {
        const answer = await curl(gw.url, refusal, file, expectContinue);
        expect({ name: refusal.name, expectContinue, status: answer.status }).toEqual({
          name: refusal.name,
          expectContinue,
          status: refusal.status,
        });
        const body = answer.body as { message?: string; error?: string };
        expect(body.message ?? body.error).toMatch(refusal.message);
      }
    }
  });
});
