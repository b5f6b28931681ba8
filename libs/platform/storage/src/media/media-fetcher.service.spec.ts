import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskCode } from '@genhub/errors';
import { LocalDiskStorage } from '../drivers/local-disk-storage.adapter';
import { MB } from './media-formats.util';
import { MediaFetchError, MediaFetcher } from './media-fetcher.service';

const PNG = Buffer.concat([Buffer.from([0x89]), Buffer.from('PNG\r\n\x1a\n'), Buffer.alloc(40)]);
const WAV = Buffer.concat([Buffer.from('RIFF\x24\0\0\0WAVEfmt ', 'latin1'), Buffer.alloc(40)]);

describe('MediaFetcher', () => {
  let server: Server;
  let base: string;
  let dir: string;
  let storage: LocalDiskStorage;
  let open: MediaFetcher;
  let guarded: MediaFetcher;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/img.png') return res.end(PNG);
      if (req.url === '/sound.wav') return res.end(WAV);
      if (req.url === '/result.json')
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      if (req.url === '/page.html')
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><script>alert(document.domain)</script>');
      if (req.url === '/binary.html')
        return res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.from([0, 0xff, 1]));
      if (req.url === '/redirect') return res.writeHead(302, { location: '/img.png' }).end();
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/to-private')
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      if (req.url === '/huge-declared') {
        res.writeHead(200, { 'content-length': String(20 * MB + 1) });
        res.write(PNG);
        return res.end();
      }
      if (req.url === '/huge-chunked') {
        // No Content-Length: the limit must be enforced while reading.
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        res.write(PNG);
        const block = Buffer.alloc(MB);
        let sent = 0;
        const pump = () => {
          while (sent < 21) {
            sent++;
            if (!res.write(block)) return res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      if (req.url === '/slow') return setTimeout(() => res.end(PNG), 2000);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'genhub-media-'));
    storage = new LocalDiskStorage(dir, 'https://cdn.genhub.test/cdn');
    open = new MediaFetcher({ storage, allowPrivateNetwork: true, timeoutMs: 15_000 });
    guarded = new MediaFetcher({ storage, allowPrivateNetwork: false, timeoutMs: 500 });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await open.close();
    await guarded.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function failure(promise: Promise<unknown>): Promise<MediaFetchError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MediaFetchError);
    expect((error as MediaFetchError).code).toBe(TaskCode.MediaAccessFailed);
    expect((error as MediaFetchError).code).toBe(1402);
    return error as MediaFetchError;
  }

  it('downloads and sniffs an image', async () => {
    const media = await open.fetch(`${base}/img.png`, 'image');
    expect(media.contentType).toBe('image/png');
    expect(media.data.equals(PNG)).toBe(true);
  });

  it('downloads an output of any type, typed by its bytes, never as the server declared; still guarded', async () => {
    expect((await open.download(`${base}/img.png`)).contentType).toBe('image/png');
    const json = await open.download(`${base}/result.json`);
    expect(json.contentType).toBe('text/plain; charset=utf-8');
    expect(json.data.toString()).toBe('{"ok":true}');
    // Declared text/html: text is kept as plain text, anything else is a download.
    expect((await open.download(`${base}/page.html`)).contentType).toBe(
      'text/plain; charset=utf-8',
    );
    expect((await open.download(`${base}/binary.html`)).contentType).toBe(
      'application/octet-stream',
    );
    await failure(guarded.download(`${base}/img.png`));
    await failure(open.download(`${base}/missing`));
  });

  it('follows a redirect', async () => {
    expect((await open.fetch(`${base}/redirect`, 'image')).contentType).toBe('image/png');
  });

  it('reads our own CDN URLs straight from storage', async () => {
    await storage.put('uploads/a/2024-01-01/x.png', PNG, { contentType: 'image/png' });
    const media = await guarded.fetch(
      'https://cdn.genhub.test/cdn/uploads/a/2024-01-01/x.png',
      'image',
    );
    expect(media.data.equals(PNG)).toBe(true);
    const missing = await failure(
      guarded.fetch('https://cdn.genhub.test/cdn/uploads/a/nope.png', 'image'),
    );
    expect(missing.message).toContain('does not exist');
  });

  it('1402 for a private-network URL', async () => {
    const error = await failure(guarded.fetch(`${base}/img.png`, 'image'));
    expect(error.message).toContain('private network');
  });

  it('1402 for a redirect to a private address, even when the first host is public', async () => {
    const error = await failure(open.fetch(`${base}/to-private`, 'image').then(() => undefined));
    // With private networks allowed the redirect target is reachable-or-not; with them refused it must be named.
    expect(error.message).toMatch(/169\.254\.169\.254|could not be downloaded/);
    const refused = await failure(guarded.fetch('http://localhost/x.png', 'image'));
    expect(refused.message).toContain('private network');
  });

  it('1402 for an unreachable URL', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const error = await failure(open.fetch(`http://127.0.0.1:${port}/x.png`, 'image'));
    expect(error.message).toContain('could not be downloaded');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('1402 for an HTTP error status', async () => {
    expect((await failure(open.fetch(`${base}/missing`, 'image'))).message).toContain('HTTP 404');
  });

  it('1402 for an oversized download (declared or streamed)', async () => {
    expect((await failure(open.fetch(`${base}/huge-declared`, 'image'))).message).toContain(
      '20 MB limit',
    );
    expect((await failure(open.fetch(`${base}/huge-chunked`, 'image'))).message).toContain(
      '20 MB limit',
    );
  });

  it('1402 when the content is not of the expected kind', async () => {
    const error = await failure(open.fetch(`${base}/sound.wav`, 'image'));
    expect(error.message).toContain('is not a supported image file');
    expect((await open.fetch(`${base}/sound.wav`, 'audio')).contentType).toBe('audio/wav');
  });

  it('1402 on too many redirects', async () => {
    expect((await failure(open.fetch(`${base}/loop`, 'image'))).message).toContain(
      'redirected more than 3 times',
    );
  });

  it('1402 on timeout', async () => {
    const quick = new MediaFetcher({ storage, allowPrivateNetwork: true, timeoutMs: 300 });
    expect((await failure(quick.fetch(`${base}/slow`, 'image'))).message).toContain('timed out');
    await quick.close();
  });
});
