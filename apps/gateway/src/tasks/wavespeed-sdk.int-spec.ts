import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, WavespeedSubmissionException, WavespeedSyncTimeoutException } from 'wavespeed';
import { type LocalPlatform, startLocalPlatform } from '@genhub/testing';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SIMULATOR = 'local/simulator/test';

/**
 * The vendor's official JavaScript SDK (npm `wavespeed`, unmodified) against
 * the built gateway and task-worker, local-disk storage: switching an
 * application from WaveSpeed to genhub is one base URL (issue 20).
 */
describe('the official WaveSpeed SDK against genhub', () => {
  let platform: LocalPlatform;
  let gateway: string;
  let apiKey: string;
  let client: Client;

  beforeAll(async () => {
    platform = await startLocalPlatform('wavespeed', {
      ALLOW_PRIVATE_NETWORK_URLS: 'true',
      // Short, so a sync wait that runs out can be seen.
      SYNC_TIMEOUT_MS: '2000',
    });
    gateway = platform.gateway;
    apiKey = await platform.accountWithKey();
    client = new Client(apiKey, { baseUrl: gateway, timeout: 60, retryInterval: 0.1 });
  }, 120_000);

  afterAll(() => platform?.stop());

  it('run: submits, polls the result route and returns the outputs', async () => {
    const result = await client.run(
      SIMULATOR,
      { prompt: 'a lighthouse', num_outputs: 2, duration_ms: 200 },
      { pollInterval: 0.1 },
    );
    expect(result.outputs).toHaveLength(2);
    for (const url of result.outputs) expect((await fetch(url as string)).status).toBe(200);
  }, 30_000);

  it('run with enableSyncMode: one request, the outputs in its answer', async () => {
    const result = await client.run(SIMULATOR, { prompt: 'sync please' }, { enableSyncMode: true });
    expect(result.outputs).toEqual([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/cdn\/outputs\//),
    ]);
  }, 30_000);

  it('a sync wait that runs out is the SDK’s sync time-out, with where to read the result', async () => {
    const refusal = await client
      .run(SIMULATOR, { prompt: 'slow', duration_ms: 4000 }, { enableSyncMode: true })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(WavespeedSyncTimeoutException);
    const resultUrl = (refusal as WavespeedSyncTimeoutException).resultUrl as string;
    expect(resultUrl).toMatch(new RegExp(`^${gateway}/api/v3/predictions/[0-9a-f-]{36}/result$`));
    const later = await client.runNoThrow(SIMULATOR, { prompt: 'fast' }, { enableSyncMode: true });
    expect(later.detail.status).toBe('completed');
  }, 30_000);

  it('runNoThrow: a failing task comes back as its error, not an exception', async () => {
    const result = await client.runNoThrow(
      SIMULATOR,
      { prompt: 'fail', fail_code: 1200 },
      { pollInterval: 0.1 },
    );
    expect(result.outputs).toBeNull();
    expect(result.detail.status).toBe('failed');
    expect(result.detail.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(result.detail.error)).toContain('Prediction failed');
  }, 30_000);

  it('upload: a ticket, the PUT, and the download_url works as a model input', async () => {
    const file = join(platform.dir, 'input.png');
    writeFileSync(file, PNG);
    const url = await client.upload(file);
    expect(url).toMatch(new RegExp(`^${gateway}/cdn/uploads/`));
    const fetched = await fetch(url);
    expect([fetched.status, Buffer.from(await fetched.arrayBuffer())]).toEqual([200, PNG]);
    const result = await client.run(
      SIMULATOR,
      { prompt: 'with an image', image_url: url },
      { pollInterval: 0.1 },
    );
    expect(result.outputs).toHaveLength(1);
  }, 30_000);

  describe('direct uploads on local disk, refused as they should be', () => {
    const ticket = async (body: object) => {
      const answer = await fetch(`${gateway}/api/v3/media/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const put = (url: string, body: Buffer, contentType = 'image/png') =>
      fetch(url, { method: 'PUT', headers: { 'Content-Type': contentType }, body });

    it('refuses a type we do not accept and a size over the format’s limit', async () => {
      expect(await ticket({ filename: 'notes.txt', size: 10 })).toMatchObject({
        status: 400,
        body: { code: 400, message: expect.stringContaining('Unsupported file type'), data: null },
      });
      expect(await ticket({ filename: 'big.png', size: 21 * 1024 * 1024 })).toMatchObject({
        status: 413,
        body: { code: 413, message: expect.stringContaining('at most 20 MB') },
      });
      expect((await ticket({ filename: 'x.png' })).status).toBe(400);
    });

    it('refuses a body of another size, and a body that is not the declared type', async () => {
      const small = await ticket({
        filename: 'a.png',
        size: PNG.length + 5,
        content_type: 'image/png',
      });
      expect((await put(small.body.data.upload.url, PNG)).status).toBe(400);
      const lie = Buffer.from('GIF89a'.padEnd(PNG.length, '!'));
      const lying = await ticket({ filename: 'b.png', size: lie.length });
      const refused = await put(lying.body.data.upload.url, lie);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toBe(
        'The file is not the declared type: PNG declared, GIF sent',
      );
      expect((await fetch(lying.body.data.download_url)).status).toBe(404);
      // The SDK's declared type, not the gateway's canonical one, is what the PUT must carry.
      expect((await put(small.body.data.upload.url, PNG, 'image/gif')).status).toBe(400);
    });

    it('takes a ticket once, and refuses a ticket that was tampered with', async () => {
      const once = await ticket({ filename: 'c.png', size: PNG.length });
      expect((await put(once.body.data.upload.url, PNG)).status).toBe(200);
      const again = await put(once.body.data.upload.url, PNG);
      expect([again.status, ((await again.json()) as { message: string }).message]).toEqual([
        409,
        'Upload ticket already used',
      ]);
      const fresh = await ticket({ filename: 'd.png', size: PNG.length });
      const tampered = fresh.body.data.upload.url.replace(
        /ticket=(.)/,
        (_: string, c: string) => `ticket=${c === 'A' ? 'B' : 'A'}`,
      );
      expect((await put(tampered, PNG)).status).toBe(403);
      expect((await fetch(fresh.body.data.download_url)).status).toBe(404);
    });
  });

  it('a bad key: the submit is refused in the v3 envelope', async () => {
    const stranger = new Client('gh_not-a-key', { baseUrl: gateway });
    const refusal = await stranger.run(SIMULATOR, { prompt: 'x' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(WavespeedSubmissionException);
    expect(String((refusal as Error).message)).toContain(
      'HTTP 401: {"code":401,"message":"Invalid or revoked API key","data":null}',
    );
  });

  it('counts the SDK’s requests by the name it sends in X-Client-Name', async () => {
    const metrics = await (await fetch(`${gateway}/metrics`)).text();
    const line = metrics
      .split('\n')
      .find(
        (l) =>
          l.startsWith('genhub_api_client_requests_total{') && l.includes('client="wavespeed-js"'),
      );
    expect(Number(line?.split(' ').pop())).toBeGreaterThan(5);
  });

  it('the balance afterwards: every completed task charged once, the failed one not', async () => {
    const answer = await fetch(`${gateway}/v1/balance`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    // Four completed simulator tasks at 0.001 each (run, two sync runs, upload run); the failed one
    // is free; the slow one whose sync wait ran out is reserved, or charged once it completes.
    const { balance } = (await answer.json()) as { balance: number };
    expect(balance).toBe(9.995);
  });
});
