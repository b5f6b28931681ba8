import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ApiKeyAuthenticator } from '@genhub/accounts-feature';
import { AppErrorCode, AppException } from '@genhub/errors';
import { MB, UPLOAD_QUOTA, type UploadQuota, UploadFileUseCase } from '@genhub/storage';
import { createStorageTestApp, StorageTestApp } from '../test/storage-test-app.util';
import { V3TestFilter } from '../test/v3-test.filter';
import { FilesController } from './files.controller';
import { registerMultipart } from './multipart.plugin';

interface SharpLike {
  png(): SharpLike;
  jpeg(): SharpLike;
  webp(): SharpLike;
  gif(): SharpLike;
  toBuffer(): Promise<Buffer>;
}
// sharp ships no types for its CommonJS entry.
const sharp = require('sharp') as (options: object) => SharpLike;

const ACCOUNT = {
  id: '0b5e8a4e-4c1f-4a8e-9a55-2f7d7c1d9a01',
  currency: 'USD',
  accountLevel: 'Bronze',
  apiKeyId: 'k1',
  apiKeyLimits: { allowedModels: null, scopes: null, expiresAt: null, spendLimit: null },
};
const AUTH = { authorization: 'Bearer good-key' };
const BOUNDARY = '----genhub-test-boundary';

// Hand-made minimal headers: enough for the sniffer, like the first bytes of real files.
const b = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  );
const ftyp = (brand: string) =>
  b([0, 0, 0, 0x18], 'ftyp', brand, [0, 0, 2, 0], brand, 'isom', [0, 0, 0, 8], 'free');
const HEADERS = {
  mp4: ftyp('isom'),
  mov: ftyp('qt  '),
  m4a: ftyp('M4A '),
  webm: b(
    [
      0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2,
      0x81, 0x04, 0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x84,
    ],
    'webm',
    [0x42, 0x87, 0x81, 0x02, 0x42, 0x85, 0x81, 0x02],
  ),
  mp3: b('ID3', [4, 0, 0, 0, 0, 0, 0], [0xff, 0xfb, 0x90, 0x64]),
  wav: b(
    'RIFF',
    [36, 0, 0, 0],
    'WAVEfmt ',
    [16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0],
    'data',
    [0, 0, 0, 0],
  ),
  flac: b('fLaC', [0x80, 0, 0, 34], Array(34).fill(0)),
};

interface Part {
  name: string;
  filename?: string;
  type?: string;
  /** Content, or a size to stream (header followed by zero bytes). */
  content: Buffer | { header: Buffer; size: number };
}

function* chunks(part: Part): Generator<Buffer> {
  if (Buffer.isBuffer(part.content)) return yield part.content;
  const { header, size } = part.content;
  yield header;
  const block = Buffer.alloc(MB);
  let left = size - header.length;
  while (left > 0) {
    const n = Math.min(block.length, left);
    yield n === block.length ? block : block.subarray(0, n);
    left -= n;
  }
}

function multipart(parts: Part[]): Readable {
  return Readable.from(
    (function* () {
      for (const part of parts) {
        const disposition = part.filename
          ? `form-data; name="${part.name}"; filename="${part.filename}"`
          : `form-data; name="${part.name}"`;
        yield Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n` +
            (part.filename ? `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n` : '') +
            '\r\n',
        );
        yield* chunks(part);
        yield Buffer.from('\r\n');
      }
      yield Buffer.from(`--${BOUNDARY}--\r\n`);
    })(),
    { objectMode: false },
  );
}

describe('POST /api/v3/files/upload', () => {
  let t: StorageTestApp;
  let port: number;

  beforeAll(async () => {
    t = await createStorageTestApp({
      controllers: [FilesController],
      providers: [
        UploadFileUseCase,
        // The quotas are tested on PostgreSQL (upload-quotas.int-spec.ts); here, none.
        {
          provide: UPLOAD_QUOTA,
          useValue: {
            headroom: async () => ({ leftBytes: Infinity, limitBytes: 0, heldBytes: 0 }),
            record: async () => undefined,
          } satisfies Pick<UploadQuota, 'headroom' | 'record'>,
        },
        {
          provide: ApiKeyAuthenticator,
          useValue: {
            authenticate: async (header?: string) => {
              if (header !== AUTH.authorization) throw new AppException(AppErrorCode.InvalidApiKey);
              return ACCOUNT;
            },
          },
        },
      ],
      configure: async (app) => {
        await registerMultipart(app);
        app.useGlobalFilters(new V3TestFilter());
      },
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  function post(
    body: Readable | Buffer,
    headers: Record<string, string> = {},
  ): Promise<{
    status: number;
    json: { code: number; message: string; data: { url: string } | null };
  }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v3/files/upload',
          headers: {
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
            ...AUTH,
            ...headers,
          },
        },
        (res) => {
          const got: Buffer[] = [];
          res.on('data', (c) => got.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              json: JSON.parse(Buffer.concat(got).toString()),
            }),
          );
        },
      );
      // The server may answer (413) and close before the whole body is sent.
      req.on('error', (e: NodeJS.ErrnoException) =>
        e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e),
      );
      if (Buffer.isBuffer(body)) req.end(body);
      else body.pipe(req);
    });
  }

  async function storedFiles(): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        if (e.isDirectory()) await walk(join(dir, e.name));
        else if (!e.name.endsWith('.json')) out.push(join(dir, e.name));
      }
    };
    await walk(join(t.dir, 'objects'));
    return out;
  }

  async function expectNothingStored(): Promise<void> {
    // Give an aborted write a moment to clean up.
    for (let i = 0; i < 50 && (await storedFiles()).length; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await storedFiles()).toEqual([]);
  }

  async function clear(): Promise<void> {
    await t.storage.deletePrefix('uploads/');
  }
  beforeEach(clear);

  const images = {
    png: () =>
      sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
        .png()
        .toBuffer(),
    jpg: () =>
      sharp({ create: { width: 4, height: 4, channels: 3, background: '#0f0' } })
        .jpeg()
        .toBuffer(),
    webp: () =>
      sharp({ create: { width: 4, height: 4, channels: 3, background: '#00f' } })
        .webp()
        .toBuffer(),
    gif: () =>
      sharp({ create: { width: 4, height: 4, channels: 3, background: '#ff0' } })
        .gif()
        .toBuffer(),
  };

  it.each([
    ['png', 'image/png', images.png],
    ['jpg', 'image/jpeg', images.jpg],
    ['webp', 'image/webp', images.webp],
    ['gif', 'image/gif', images.gif],
    ['mp4', 'video/mp4', async () => HEADERS.mp4],
    ['mov', 'video/quicktime', async () => HEADERS.mov],
    ['webm', 'video/webm', async () => HEADERS.webm],
    ['mp3', 'audio/mpeg', async () => HEADERS.mp3],
    ['wav', 'audio/wav', async () => HEADERS.wav],
    ['flac', 'audio/flac', async () => HEADERS.flac],
    ['m4a', 'audio/mp4', async () => HEADERS.m4a],
  ])('accepts %s (sniffed, stored as %s)', async (ext, contentType, make) => {
    const content = await make();
    // A misleading name and declared type: the content decides.
    const res = await post(
      multipart([{ name: 'file', filename: 'upload.txt', type: 'text/plain', content }]),
    );
    expect(res.status).toBe(200);
    expect(res.json.code).toBe(200);
    expect(res.json.message).toBe('success');
    const url = res.json.data!.url;
    expect(url).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:3000/cdn/uploads/${ACCOUNT.id}/\\d{4}-\\d{2}-\\d{2}/[0-9a-f-]{36}\\.${ext}$`,
      ),
    );
    const key = t.storage.keyFromUrl(url)!;
    const stored = await t.storage.stat(key);
    expect(stored).toMatchObject({ size: content.length, contentType });
  });

  it.each([
    [
      'a text file named .png',
      Buffer.from('just some text, not an image at all'),
      'evil.png',
      'image/png',
    ],
    ['a PDF named .jpg', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj'), 'doc.jpg', 'image/jpeg'],
    [
      'a ZIP named .mp4',
      Buffer.from('PK\u0003\u0004\u0014\u0000\u0000\u0000'),
      'video.mp4',
      'video/mp4',
    ],
    [
      'an HTML page named .gif',
      Buffer.from('<html><script>alert(1)</script></html>'),
      'x.gif',
      'image/gif',
    ],
    [
      'a Matroska (not WebM) file',
      b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska'),
      'x.webm',
      'video/webm',
    ],
    ['an empty file', Buffer.alloc(0), 'empty.png', 'image/png'],
  ])('refuses %s with 400 naming the accepted formats', async (_label, content, filename, type) => {
    const res = await post(multipart([{ name: 'file', filename, type, content }]));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 400,
      message: expect.stringContaining('Accepted formats: PNG, JPEG, WebP, GIF'),
      data: null,
    });
    expect(res.json.message).toContain('MP4, WebM, MOV (videos, up to 100 MB)');
    await expectNothingStored();
  });

  it('refuses a request without a file part', async () => {
    const res = await post(multipart([{ name: 'note', content: Buffer.from('hello') }]));
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      "Missing file: send multipart/form-data with one file part named 'file'",
    );
    expect(res.json.data).toBeNull();
  });

  it('refuses a file part with another name', async () => {
    const res = await post(
      multipart([{ name: 'image', filename: 'a.png', content: await images.png() }]),
    );
    expect(res.status).toBe(400);
    expect(res.json.message).toContain("named 'file'");
    await expectNothingStored();
  });

  it('refuses several files and keeps none of them', async () => {
    const png = await images.png();
    const res = await post(
      multipart([
        { name: 'file', filename: 'a.png', content: png },
        { name: 'file', filename: 'b.png', content: png },
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      "Only one file may be uploaded per request, in the part named 'file'",
    );
    await expectNothingStored();
  });

  it('refuses a body that is not multipart', async () => {
    const res = await post(Buffer.from(JSON.stringify({ file: 'x' })), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      "Request must be multipart/form-data with one file part named 'file'",
    );
  });

  it('refuses a request without a valid API key', async () => {
    const res = await post(
      multipart([{ name: 'file', filename: 'a.png', content: await images.png() }]),
      {
        authorization: 'Bearer wrong',
      },
    );
    expect(res.status).toBe(401);
    await expectNothingStored();
  });

  describe.each([
    [
      'image',
      b([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR'),
      20,
      'PNG files (images) may be at most 20 MB',
    ],
    ['audio', HEADERS.wav, 50, 'WAV files (audio) may be at most 50 MB'],
    ['video', HEADERS.mp4, 100, 'MP4 files (videos) may be at most 100 MB'],
  ])('%s size limit', (_kind, header, limitMb, message) => {
    it(`accepts exactly ${limitMb} MB`, async () => {
      const res = await post(
        multipart([{ name: 'file', filename: 'f', content: { header, size: limitMb * MB } }]),
      );
      expect(res.status).toBe(200);
      const stored = await t.storage.stat(t.storage.keyFromUrl(res.json.data!.url)!);
      expect(stored?.size).toBe(limitMb * MB);
    }, 60_000);

    it(`refuses ${limitMb} MB + 1 byte with 413 and keeps nothing`, async () => {
      const res = await post(
        multipart([{ name: 'file', filename: 'f', content: { header, size: limitMb * MB + 1 } }]),
      );
      expect(res.status).toBe(413);
      expect(res.json).toEqual({ code: 413, message: `File too large: ${message}`, data: null });
      await expectNothingStored();
    }, 60_000);
  });

  it('leaves nothing behind when the client aborts mid-upload', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v3/files/upload',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...AUTH },
      });
      req.on('error', () => undefined);
      req.write(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\n`,
      );
      req.write(HEADERS.mp4);
      req.write(Buffer.alloc(3 * MB));
      // Wait until the server has started writing, then vanish.
      const started = Date.now();
      const poll = setInterval(async () => {
        const tmp = await readdir(join(t.dir, 'objects', '.tmp')).catch(() => []);
        if (tmp.length || Date.now() - started > 3000) {
          clearInterval(poll);
          expect(tmp.length).toBeGreaterThan(0);
          req.destroy();
          resolve();
        }
      }, 10);
    });
    await expectNothingStored();
    for (let i = 0; i < 50 && (await readdir(join(t.dir, 'objects', '.tmp'))).length; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await readdir(join(t.dir, 'objects', '.tmp'))).toEqual([]);
  });

  it('streams a 100 MB upload without holding it in memory', async () => {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const res = await post(
      multipart([
        { name: 'file', filename: 'big.mp4', content: { header: HEADERS.mp4, size: 100 * MB } },
      ]),
    );
    clearInterval(sampler);
    expect(res.status).toBe(200);
    const growthMb = (peak - baseline) / MB;
    // Client and server share this process: both stream in 1 MB blocks.
    expect(growthMb).toBeLessThan(40);
  }, 60_000);
});
