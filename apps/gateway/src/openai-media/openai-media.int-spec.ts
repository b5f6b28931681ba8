import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { APIError, toFile } from 'openai';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import {
  FakeOpenAi,
  type LocalPlatform,
  openAiError,
  startLocalPlatform,
  tinyWav,
} from '@genhub/testing';

const IMAGE = 'local/image/text-to-image';
const SPEECH = 'local/speech/text-to-speech';
const WHISPER = 'fake/whisper/speech-to-text';
const SLOW_WHISPER = 'fake/slow-whisper/speech-to-text';
/** Prices in micro-units: the local models', and the providers file's 0.006 and 0.007. */
const PRICE = { [IMAGE]: 2000, [SPEECH]: 1000, [WHISPER]: 6000, [SLOW_WHISPER]: 7000 };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Short, so a task that outlives it can be seen; long enough for the local models. */
const SYNC_TIMEOUT_MS = 6000;

/**
 * The openai SDK's media calls (the real `openai` package) against the built gateway and
 * task-worker (decision 0136): images, speech and transcriptions as synchronous submits,
 * each billed once through the engine, refusals in OpenAI's shape.
 */
describe('OpenAI-compatible media routes with the official openai client (built apps, PostgreSQL + Redis)', () => {
  let platform: LocalPlatform;
  let upstream: FakeOpenAi;
  let slow: FakeOpenAi;
  let db: DataSource;
  let dir: string;

  beforeAll(async () => {
    [upstream, slow] = await Promise.all([FakeOpenAi.start(), FakeOpenAi.start()]);
    const upstreams = {
      whisper: { kind: 'openai', base_url: upstream.baseUrl, timeout_ms: 5000 },
      // Answers nothing when told to hang: its time limit ends the task after the sync wait.
      slow: { kind: 'openai', base_url: slow.baseUrl, timeout_ms: SYNC_TIMEOUT_MS + 3000 },
    };
    const model = (slug: string, upstreamName: string, price: number) => ({
      slug,
      name: slug,
      category: 'audio',
      description: 'Speech to text through a fake OpenAI-compatible upstream.',
      input: 'speech-to-text',
      channels: { stable: [{ upstream: upstreamName, model: 'whisper-1', price }] },
    });
    // The providers file is read at start-up: written before the apps start.
    dir = mkdtempSync(join(tmpdir(), 'genhub-openai-media-'));
    const file = join(dir, 'providers.json');
    writeFileSync(
      file,
      JSON.stringify({
        upstreams,
        models: [model(WHISPER, 'whisper', 0.006), model(SLOW_WHISPER, 'slow', 0.007)],
      }),
    );
    platform = await startLocalPlatform('openai-media', {
      SYNC_TIMEOUT_MS: String(SYNC_TIMEOUT_MS),
      PROVIDERS_FILE: file,
    });
    db = new DataSource(dataSourceOptions({ url: platform.databaseUrl }));
    await db.initialize();
  }, 300_000);

  afterAll(async () => {
    await db?.destroy();
    await platform?.stop();
    await Promise.all([upstream?.close(), slow?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  async function account(
    balance = 1,
    key: object = {},
  ): Promise<{ id: string; client: OpenAI; key: string }> {
    const admin = {
      authorization: `Bearer ${platform.adminToken}`,
      'content-type': 'application/json',
    };
    const created = (await (
      await fetch(`${platform.gateway}/admin/v1/accounts`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ balance }),
      })
    ).json()) as { id: string };
    const issued = (await (
      await fetch(`${platform.gateway}/admin/v1/accounts/${created.id}/api-keys`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify(key),
      })
    ).json()) as { key: string };
    return {
      id: created.id,
      key: issued.key,
      client: new OpenAI({
        apiKey: issued.key,
        baseURL: `${platform.gateway}/v1`,
        maxRetries: 0,
        timeout: 60_000,
      }),
    };
  }

  async function ledgerOf(accountId: string) {
    const [balance] = await db.query(
      `SELECT balance_units, reserved_units FROM billing.balances WHERE account_id = $1`,
      [accountId],
    );
    const usage: { amount_units: number; model: string; task_id: string }[] = await db.query(
      `SELECT amount_units, model, task_id FROM billing.records
        WHERE account_id = $1 AND type = 'usage' ORDER BY seq`,
      [accountId],
    );
    return {
      balance: Number(balance.balance_units),
      reserved: Number(balance.reserved_units),
      usage: usage.map((u) => ({ ...u, amount_units: Number(u.amount_units) })),
    };
  }

  async function apiError(promise: Promise<unknown>): Promise<APIError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof APIError) return error;
      throw error;
    }
    throw new Error('expected an APIError');
  }

  it('generates images as URLs and as base64 PNG bytes, each call billed once as a task', async () => {
    const { id, client } = await account(1);
    const asUrls = await client.images.generate({
      model: IMAGE,
      prompt: 'a lighthouse at dawn',
      n: 2,
      size: '512x512',
    });
    expect(asUrls.created).toEqual(expect.any(Number));
    expect(asUrls.data).toHaveLength(2);
    for (const image of asUrls.data ?? []) {
      expect(image.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cdn\/outputs\//);
      const fetched = Buffer.from(await (await fetch(image.url as string)).arrayBuffer());
      expect(fetched.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }
    const asBytes = await client.images.generate({
      model: IMAGE,
      prompt: 'a lighthouse at dawn',
      size: '1536x1024',
      response_format: 'b64_json',
    });
    expect(asBytes.data).toHaveLength(1);
    const png = Buffer.from(asBytes.data?.[0].b64_json as string, 'base64');
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // 1536×1024 is 3:2 at the 2048 resolution: the IHDR's width and height.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2048, 1365]);
    const ledger = await ledgerOf(id);
    expect(ledger.reserved).toBe(0);
    expect(ledger.usage).toEqual([
      { amount_units: -PRICE[IMAGE], model: IMAGE, task_id: expect.any(String) },
      { amount_units: -PRICE[IMAGE], model: IMAGE, task_id: expect.any(String) },
    ]);
    expect(ledger.balance).toBe(1_000_000 - 2 * PRICE[IMAGE]);
    // Each call is a task of the account's history, with the mapped input.
    const [task] = await db.query(`SELECT status, input FROM tasks.tasks WHERE id = $1`, [
      ledger.usage[1].task_id,
    ]);
    expect(task).toEqual({
      status: 'completed',
      input: { prompt: 'a lighthouse at dawn', aspect_ratio: '3:2', resolution: '2048' },
    });
  }, 60_000);

  it('speaks WAV bytes the SDK reads with arrayBuffer(), billed once', async () => {
    const { id, client } = await account(1);
    const response = await client.audio.speech.create({
      model: SPEECH,
      input: 'Hello from genhub.',
      voice: 'alloy',
      response_format: 'wav',
    });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await response.arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    // The RIFF size is the file's length less its first 8 bytes; audio, not a stub.
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.length).toBeGreaterThan(10_000);
    const ledger = await ledgerOf(id);
    expect(ledger).toMatchObject({ reserved: 0, balance: 1_000_000 - PRICE[SPEECH] });
    expect(ledger.usage).toEqual([
      { amount_units: -PRICE[SPEECH], model: SPEECH, task_id: expect.any(String) },
    ]);
  }, 60_000);

  it('transcribes through an upstream speaking OpenAI’s wire format, billed once', async () => {
    const { id, client } = await account(1);
    upstream.transcript = 'the quick brown fox';
    const before = upstream.requests.length;
    const audio = tinyWav(8000);
    const transcription = await client.audio.transcriptions.create({
      file: await toFile(audio, 'hello.wav', { type: 'audio/wav' }),
      model: WHISPER,
      language: 'en',
    });
    expect(transcription).toEqual({ text: 'the quick brown fox' });
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v1/audio/transcriptions');
    expect(sent[0].headers['content-type']).toMatch(/^multipart\/form-data/);
    // The very bytes the client sent, and the language, reached the upstream.
    expect(sent[0].body.includes(audio)).toBe(true);
    expect(sent[0].body.toString('latin1')).toMatch(/name="language"\r\n\r\nen\r\n/);
    const text = await client.audio.transcriptions.create({
      file: await toFile(audio, 'hello.wav', { type: 'audio/wav' }),
      model: WHISPER,
      response_format: 'text',
    });
    expect(text).toBe('the quick brown fox');
    const ledger = await ledgerOf(id);
    expect(ledger).toMatchObject({ reserved: 0, balance: 1_000_000 - 2 * PRICE[WHISPER] });
    expect(ledger.usage.map((u) => [u.amount_units, u.model])).toEqual([
      [-PRICE[WHISPER], WHISPER],
      [-PRICE[WHISPER], WHISPER],
    ]);
  }, 60_000);

  it('lists the media models beside the chat models in GET /v1/models', async () => {
    const { client } = await account(1);
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining([IMAGE, SPEECH, WHISPER, 'local/chat']));
    // A model no media route takes is not listed there.
    expect(ids).not.toContain('local/simulator/test');
    const limited = await account(1, { allowed_models: ['local/speech/*'] });
    const allowed: string[] = [];
    for await (const model of limited.client.models.list()) allowed.push(model.id);
    expect(allowed).toEqual([SPEECH]);
    // The SDK's models.retrieve finds each one too (its slashes percent-encoded).
    expect(await client.models.retrieve(WHISPER)).toEqual({
      id: WHISPER,
      object: 'model',
      created: expect.any(Number),
      owned_by: 'fake',
    });
    const refused = await apiError(limited.client.models.retrieve(IMAGE));
    expect([refused.status, refused.type]).toEqual([403, 'permission_error']);
  });

  it('refuses in OpenAI’s shape as the SDK surfaces it, charging nothing', async () => {
    const { id, client } = await account(1);
    const unknown = await apiError(client.images.generate({ model: 'nope/none/x', prompt: 'x' }));
    expect([unknown.status, unknown.error]).toEqual([
      404,
      {
        message: 'The model `nope/none/x` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    ]);
    expect(unknown.code).toBe('model_not_found');
    const wrongKind = await apiError(client.images.generate({ model: SPEECH, prompt: 'x' }));
    expect([wrongKind.status, wrongKind.code, wrongKind.param]).toEqual([
      400,
      'invalid_request',
      'model',
    ]);
    const tooMany = await apiError(client.images.generate({ model: IMAGE, prompt: 'x', n: 9 }));
    expect([tooMany.status, tooMany.type, tooMany.param]).toEqual([
      400,
      'invalid_request_error',
      'n',
    ]);
    const badSize = await apiError(
      client.images.generate({ model: IMAGE, prompt: 'x', size: '256x999' as '256x256' }),
    );
    expect([badSize.status, badSize.param, badSize.message]).toEqual([
      400,
      'size',
      expect.stringContaining('the ratio must be one of'),
    ]);
    const mp3 = await apiError(
      client.audio.speech.create({
        model: SPEECH,
        input: 'x',
        voice: 'alloy',
        response_format: 'mp3',
      }),
    );
    expect([mp3.status, mp3.param, mp3.message]).toEqual([
      400,
      'response_format',
      "400 Invalid request: response_format mp3 is not produced: genhub's speech models answer wav",
    ]);
    const notAudio = await apiError(
      client.audio.transcriptions.create({
        file: await toFile(Buffer.from('plain text, not audio'), 'a.txt'),
        model: WHISPER,
      }),
    );
    expect([notAudio.status, notAudio.type, notAudio.param]).toEqual([
      400,
      'invalid_request_error',
      'file',
    ]);
    expect(await ledgerOf(id)).toMatchObject({ reserved: 0, balance: 1_000_000, usage: [] });

    const poor = await account(0);
    const broke = await apiError(poor.client.images.generate({ model: IMAGE, prompt: 'x' }));
    expect([broke.status, broke.error]).toEqual([
      402,
      {
        message:
          'Insufficient balance. Current: $0.000, required: $0.002. Please top up and try again.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    ]);
    expect(await ledgerOf(poor.id)).toMatchObject({ reserved: 0, balance: 0, usage: [] });

    const reader = await account(1, { scopes: ['tasks:read'] });
    const scoped = await apiError(
      reader.client.audio.speech.create({
        model: SPEECH,
        input: 'x',
        voice: 'alloy',
        response_format: 'wav',
      }),
    );
    expect([scoped.status, scoped.error]).toEqual([
      403,
      {
        message: 'This API key does not have the scope tasks:write',
        type: 'permission_error',
        param: null,
        code: 'scope_not_allowed',
      },
    ]);
    const speechOnly = await account(1, { allowed_models: ['local/speech/*'] });
    const notAllowed = await apiError(
      speechOnly.client.images.generate({ model: IMAGE, prompt: 'x' }),
    );
    expect([notAllowed.status, notAllowed.type, notAllowed.code]).toEqual([
      403,
      'permission_error',
      'model_not_allowed',
    ]);
    for (const other of [reader, speechOnly])
      expect(await ledgerOf(other.id)).toMatchObject({ reserved: 0, usage: [] });
    // Authentication itself keeps {code, error}, as on the chat routes.
    const anonymous = await fetch(`${platform.gateway}/v1/images/generations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: IMAGE, prompt: 'x' }),
    });
    expect([anonymous.status, await anonymous.json()]).toEqual([
      401,
      { code: 401, error: 'Missing Authorization header' },
    ]);
  }, 60_000);

  it('a key past its spend limit is refused like a balance, in OpenAI’s shape', async () => {
    const { id, client } = await account(1, { spend_limit: { amount: 0.001, period: 'day' } });
    const limited = await apiError(client.images.generate({ model: IMAGE, prompt: 'x' }));
    expect([limited.status, limited.error]).toEqual([
      402,
      {
        message:
          'API key spend limit reached. Limit: $0.001 per day, spent: $0.000, required: $0.002.',
        type: 'insufficient_quota',
        param: null,
        code: 'key_spend_limit_reached',
      },
    ]);
    // Within the limit the same key is served, and the limit counts what it spent.
    const speech = await client.audio.speech.create({
      model: SPEECH,
      input: 'ok',
      voice: 'en',
      response_format: 'wav',
    });
    expect(Buffer.from(await speech.arrayBuffer()).toString('ascii', 0, 4)).toBe('RIFF');
    expect(await ledgerOf(id)).toMatchObject({ reserved: 0, balance: 1_000_000 - PRICE[SPEECH] });
    const spent = await apiError(
      client.audio.speech.create({ model: SPEECH, input: 'again', voice: 'en' }),
    );
    expect([spent.status, spent.code]).toEqual([402, 'key_spend_limit_reached']);
  }, 60_000);

  it('a task that fails is refused in OpenAI’s terms, naming the task, and costs nothing', async () => {
    const { id, client } = await account(1);
    const file = async () => toFile(tinyWav(800), 'a.wav', { type: 'audio/wav' });
    upstream.faults.push({
      kind: 'fail',
      status: 400,
      body: openAiError('Invalid language code', 'invalid_request_error', 'language', null),
    });
    const refused = await apiError(
      client.audio.transcriptions.create({ file: await file(), model: WHISPER }),
    );
    expect([refused.status, refused.type, refused.code]).toEqual([
      400,
      'invalid_request_error',
      'invalid_request',
    ]);
    expect(refused.message).toMatch(/^400 The task [0-9a-f-]{36} failed \(code 1401\): /);
    upstream.faults.push({ kind: 'fail', status: 500 });
    const broken = await apiError(
      client.audio.transcriptions.create({ file: await file(), model: WHISPER }),
    );
    expect([broken.status, broken.type, broken.code]).toEqual([502, 'api_error', 'upstream_error']);
    expect(broken.message).toMatch(/failed \(code 5003\)/);
    expect(await ledgerOf(id)).toMatchObject({ reserved: 0, balance: 1_000_000, usage: [] });
  }, 60_000);

  it('a task that outlives the sync wait: a 504 the SDK does not retry, then one release when it ends', async () => {
    const { id, client } = await account(1);
    const retrying = new OpenAI({
      apiKey: client.apiKey,
      baseURL: `${platform.gateway}/v1`,
      maxRetries: 2,
      timeout: 60_000,
    });
    slow.faults.push({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const started = Date.now();
    const expired = await apiError(
      retrying.audio.transcriptions.create({
        file: await toFile(tinyWav(800), 'slow.wav', { type: 'audio/wav' }),
        model: SLOW_WHISPER,
      }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(SYNC_TIMEOUT_MS);
    expect(expired.status).toBe(504);
    expect(expired.headers?.get('x-should-retry')).toBe('false');
    expect(expired.error).toEqual({
      message: expect.stringMatching(
        /^The task [0-9a-f-]{36} did not finish within the synchronous wait of 6 s\. It goes on and is billed once when it ends; read its result at GET \/v1\/requests\/[0-9a-f-]{36}\./,
      ),
      type: 'server_error',
      param: null,
      code: 'sync_wait_expired',
    });
    const taskId = /The task ([0-9a-f-]{36})/.exec(expired.message)?.[1] as string;
    // Not retried: one task, one request upstream, its price held while it runs.
    const tasks: { id: string }[] = await db.query(
      `SELECT t.id FROM tasks.tasks t WHERE t.account_id = $1`,
      [id],
    );
    expect(tasks.map((t) => t.id)).toEqual([taskId]);
    expect((await ledgerOf(id)).reserved).toBe(PRICE[SLOW_WHISPER]);
    // The upstream's time limit ends it (failed): the reservation is released, once.
    const deadline = Date.now() + 30_000;
    let status = 'processing';
    while (status === 'processing' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const answer = await fetch(`${platform.gateway}/v1/requests/${taskId}`, {
        headers: { authorization: `Bearer ${client.apiKey}` },
      });
      status = ((await answer.json()) as { status: string }).status;
    }
    expect(status).toBe('failed');
    const ledger = await ledgerOf(id);
    expect(ledger).toMatchObject({ reserved: 0, balance: 1_000_000, usage: [] });
    const records: { type: string }[] = await db.query(
      `SELECT type FROM billing.records WHERE task_id = $1`,
      [taskId],
    );
    expect(records.filter((r) => r.type === 'usage')).toEqual([]);
    slow.faults.length = 0;
  }, 90_000);
});
