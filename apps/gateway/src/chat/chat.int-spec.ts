import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { APIError } from 'openai';
import { DataSource } from 'typeorm';
import { LedgerAuditRepository } from '@genhub/billing-data-access';
import { AuditLedgerUseCase } from '@genhub/billing-feature';
import { dataSourceOptions } from '@genhub/database';
import { FakeOpenAiChat } from '@genhub/testing';
import { admin, call, RunningGateway, startGateway } from '../test/gateway-harness.util';

/** Prices of the fake upstream models, per million tokens. */
const IN_1M = 0.15;
const OUT_1M = 0.6;
const fakeCost = (p: number, c: number) => Math.ceil((p * IN_1M * 1e6 + c * OUT_1M * 1e6) / 1e6);
/** local/chat: 1 micro-unit per prompt token, 2 per completion token. */
const localCost = (p: number, c: number) => p + 2 * c;

describe('chat endpoints with the official openai client (in-process gateway, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  let primary: FakeOpenAiChat;
  let backup: FakeOpenAiChat;
  let db: DataSource;
  const accounts: string[] = [];

  beforeAll(async () => {
    [primary, backup] = await Promise.all([FakeOpenAiChat.start(), FakeOpenAiChat.start()]);
    const route = (upstream: string, model: string) => ({
      upstream,
      model,
      input_price_per_1m_tokens: IN_1M,
      output_price_per_1m_tokens: OUT_1M,
    });
    // The upstream chat models come from a real providers file, as in production.
    const file = join(mkdtempSync(join(tmpdir(), 'genhub-chat-')), 'providers.json');
    writeFileSync(
      file,
      JSON.stringify({
        upstreams: {
          primary: {
            kind: 'openai',
            base_url: primary.baseUrl,
            api_key_env: 'PRIMARY_KEY',
            timeout_ms: 5000,
          },
          backup: { kind: 'openai', base_url: backup.baseUrl, timeout_ms: 5000 },
        },
        chat_models: [
          {
            id: 'fake/gpt',
            name: 'Fake GPT',
            default_channel: 'stable',
            channels: { stable: [route('primary', 'gpt-x'), route('backup', 'gpt-y')] },
          },
          {
            id: 'fake/solo',
            name: 'Fake solo',
            default_channel: 'stable',
            channels: { stable: [route('primary', 'solo-x')] },
          },
        ],
      }),
    );
    gw = await startGateway({ PROVIDERS_FILE: file, PRIMARY_KEY: 'sk-primary-secret' });
    db = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await db.initialize();
  });
  afterAll(async () => {
    await Promise.all([gw.close(), primary.close(), backup.close(), db.destroy()]);
  });
  beforeEach(() => {
    primary.behaviour = { kind: 'reply' };
    backup.behaviour = { kind: 'reply' };
  });

  async function account(balance = 1): Promise<{ id: string; key: string; client: OpenAI }> {
    const created = await call(`${gw.url}/admin/v1/accounts`, {
      method: 'POST',
      headers: admin(),
      body: { balance },
    });
    const id = (created.body as { id: string }).id;
    accounts.push(id);
    const issued = await call(`${gw.url}/admin/v1/accounts/${id}/api-keys`, {
      method: 'POST',
      headers: admin(),
    });
    const key = (issued.body as { key: string }).key;
    return { id, key, client: new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 }) };
  }

  async function ledgerOf(accountId: string) {
    const [balance] = await db.query(
      `SELECT balance_units, reserved_units FROM billing.balances WHERE account_id = $1`,
      [accountId],
    );
    const usage = await db.query(
      `SELECT amount_units, model, category, task_id FROM billing.records
        WHERE account_id = $1 AND type = 'usage' ORDER BY seq`,
      [accountId],
    );
    return {
      balance: balance.balance_units as number,
      reserved: balance.reserved_units as number,
      usage,
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

  it('lists the chat and media models in the shape the client expects', async () => {
    const { client } = await account();
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      expect(model).toEqual({
        id: expect.any(String),
        object: 'model',
        created: expect.any(Number),
        owned_by: expect.any(String),
      });
      ids.push(model.id);
    }
    // The chat models, then the task models of the images and audio routes (decision 0136).
    expect(ids).toEqual([
      'fake/gpt',
      'fake/solo',
      'local/chat',
      'local/image/text-to-image',
      'local/speech/text-to-speech',
    ]);
  });

  it('retrieves one chat model by its id, slashes and all, and 404s an unknown one', async () => {
    const { client, key } = await account();
    const localChat = {
      id: 'local/chat',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'genhub',
    };
    // The client percent-encodes the id's slash; a hand-written URL may not.
    expect(await client.models.retrieve('local/chat')).toEqual(localChat);
    for (const path of ['/v1/models/local/chat', '/v1/models/local%2Fchat'])
      expect(
        await call(`${gw.url}${path}`, { headers: { authorization: `Bearer ${key}` } }),
      ).toMatchObject({ status: 200, body: localChat });
    const unknown = await apiError(client.models.retrieve('nope/none'));
    expect(unknown.status).toBe(404);
    expect(unknown.error).toEqual({
      message: 'The model `nope/none` does not exist or you do not have access to it.',
      type: 'invalid_request_error',
      param: 'model',
    });
  });

  it('completes with the local model and charges exactly its tokens', async () => {
    const { id, client } = await account(1);
    const completion = await client.chat.completions.create({
      model: 'local/chat',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is the capital of France?' },
      ],
    });
    expect(completion).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-[0-9a-f-]{36}$/),
      object: 'chat.completion',
      model: 'local/chat',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: expect.stringContaining('You asked: "What is the capital of France?"'),
          },
          finish_reason: 'stop',
        },
      ],
    });
    const usage = completion.usage!;
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    // system (3 + 3 tokens) + user (3 + 7 tokens) + 3 for the reply = 19 prompt tokens.
    expect(usage.prompt_tokens).toBe(19);
    const ledger = await ledgerOf(id);
    expect(ledger.reserved).toBe(0);
    expect(ledger.balance).toBe(
      1_000_000 - localCost(usage.prompt_tokens, usage.completion_tokens),
    );
    expect(ledger.usage).toEqual([
      {
        amount_units: -localCost(usage.prompt_tokens, usage.completion_tokens),
        model: 'local/chat',
        category: 'chat',
        task_id: completion.id.slice('chatcmpl-'.length),
      },
    ]);
  });

  it('streams the same answer word by word, with a usage chunk, and bills it', async () => {
    const { id, client } = await account(1);
    const messages = [{ role: 'user' as const, content: 'Tell me about streams' }];
    const plain = await client.chat.completions.create({ model: 'local/chat', messages });
    const stream = await client.chat.completions.create({
      model: 'local/chat',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe(plain.choices[0].message.content);
    expect(chunks.filter((c) => c.choices[0]?.delta?.content).length).toBeGreaterThan(5);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual(plain.usage);
    const u = plain.usage!;
    const ledger = await ledgerOf(id);
    expect(ledger.reserved).toBe(0);
    expect(ledger.balance).toBe(1_000_000 - 2 * localCost(u.prompt_tokens, u.completion_tokens));
  });

  it('accepts text content parts as the client sends them, answering and billing as the joined string', async () => {
    const { id, client } = await account(1);
    const parts = await client.chat.completions.create({
      model: 'local/chat',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is' },
            { type: 'text', text: 'the capital of France?' },
          ],
        },
      ],
    });
    const plain = await client.chat.completions.create({
      model: 'local/chat',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is\nthe capital of France?' },
      ],
    });
    expect(parts.choices[0].message.content).toBe(plain.choices[0].message.content);
    expect(parts.usage).toEqual(plain.usage);
    const stream = await client.chat.completions.create({
      model: 'local/chat',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Tell me about streams' }] }],
      stream: true,
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? '';
    expect(streamed).toContain('Tell me about streams');
    const u = plain.usage!;
    const ledger = await ledgerOf(id);
    expect(ledger.reserved).toBe(0);
    expect(ledger.usage).toHaveLength(3);
    expect(ledger.usage[0].amount_units).toBe(-localCost(u.prompt_tokens, u.completion_tokens));
  });

  it('refuses other content part types and malformed parts with a 400 naming them, charging nothing', async () => {
    const { id, client } = await account(1);
    const image = await apiError(
      client.chat.completions.create({
        model: 'local/chat',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this image?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      }),
    );
    expect(image.status).toBe(400);
    expect(image.error).toEqual({
      message:
        'Invalid request: content[1].type "image_url" is not supported by this model; only "text" parts are accepted',
      type: 'invalid_request_error',
      param: 'messages.0.content',
    });
    for (const [content, message] of [
      [[], 'content must not be an empty array'],
      [[{ type: 'text' }], 'content[0].text must be a string'],
      [['hi'], 'content[0] must be an object {"type":"text","text":…}'],
      [42, 'content must be a string or an array of text parts'],
    ] as const) {
      const refused = await call(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${client.apiKey}` },
        body: { model: 'local/chat', messages: [{ role: 'user', content }] },
      });
      expect({ content, status: refused.status, body: refused.body }).toEqual({
        content,
        status: 400,
        body: {
          error: {
            message: `Invalid request: ${message}`,
            type: 'invalid_request_error',
            param: 'messages.0.content',
          },
        },
      });
    }
    expect(await ledgerOf(id)).toMatchObject({ reserved: 0, usage: [] });
  });

  it('honours max_tokens and stop', async () => {
    const { client } = await account(1);
    const messages = [{ role: 'user' as const, content: 'one two three four five' }];
    const short = await client.chat.completions.create({
      model: 'local/chat',
      messages,
      max_tokens: 3,
    });
    expect(short.choices[0]).toMatchObject({
      finish_reason: 'length',
      message: { content: 'You said:' },
    });
    expect(short.usage?.completion_tokens).toBe(3);
    const stopped = await client.chat.completions.create({
      model: 'local/chat',
      messages,
      stop: ['three'],
    });
    expect(stopped.choices[0].message.content).toBe('You said: "one two');
    expect(stopped.choices[0].finish_reason).toBe('stop');
  });

  it('answers errors in the chat shape, surfaced by the client as APIError', async () => {
    const { id, client } = await account(1);
    const unknown = await apiError(
      client.chat.completions.create({
        model: 'nope/none',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.error).toEqual({
      message: 'The model `nope/none` does not exist or you do not have access to it.',
      type: 'invalid_request_error',
      param: 'model',
    });
    const invalid = await apiError(
      client.chat.completions.create({ model: 'local/chat', messages: [] }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.type).toBe('invalid_request_error');
    expect(invalid.param).toBe('messages');
    const two = await apiError(
      client.chat.completions.create({
        model: 'local/chat',
        n: 2,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(two.status).toBe(400);
    expect(two.param).toBe('n');
    expect((await ledgerOf(id)).usage).toEqual([]);

    const poor = await account(0);
    const broke = await apiError(
      poor.client.chat.completions.create({
        model: 'local/chat',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(broke.status).toBe(402);
    expect(broke.error).toEqual({
      message: expect.stringMatching(
        /^Insufficient balance\. Current: \$0\.000, required: \$0\.\d{3}\. Please top up and try again\.$/,
      ),
      type: 'insufficient_quota',
      param: null,
    });
    expect(await ledgerOf(poor.id)).toMatchObject({ balance: 0, reserved: 0 });
  });

  it('keeps {code, error} for every authentication refusal', async () => {
    const { id, key } = await account(1);
    for (const [method, path] of [
      ['GET', '/v1/models'],
      ['POST', '/v1/chat/completions'],
    ]) {
      const body = method === 'POST' ? { model: 'local/chat', messages: [] } : undefined;
      expect(await call(`${gw.url}${path}`, { method, body })).toMatchObject({
        status: 401,
        body: { code: 401, error: 'Missing Authorization header' },
      });
      expect(
        await call(`${gw.url}${path}`, { method, body, headers: { authorization: 'Basic x' } }),
      ).toMatchObject({
        status: 401,
        body: { code: 401, error: 'Invalid Authorization format, expected: Bearer <api_key>' },
      });
      expect(
        await call(`${gw.url}${path}`, {
          method,
          body,
          headers: { authorization: 'Bearer sk-unknown' },
        }),
      ).toMatchObject({ status: 401, body: { code: 401, error: 'Invalid or revoked API key' } });
    }
    await call(`${gw.url}/admin/v1/accounts/${id}/suspend`, { method: 'POST', headers: admin() });
    const suspended = await call(`${gw.url}/v1/models`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(suspended.status).toBe(403);
    expect(suspended.body).toEqual({ code: 403, error: expect.any(String) });
  });

  it('proxies to the OpenAI-compatible upstream, JSON and SSE, billing its usage', async () => {
    const { id, client } = await account(1);
    primary.enqueue({
      kind: 'reply',
      content: 'Hi from upstream',
      promptTokens: 21,
      completionTokens: 4,
    });
    const completion = await client.chat.completions.create({
      model: 'fake/gpt',
      messages: [{ role: 'user', content: 'hello upstream' }],
      temperature: 0.5,
    });
    expect(completion.model).toBe('fake/gpt');
    expect(completion.choices[0].message.content).toBe('Hi from upstream');
    expect(completion.usage).toEqual({ prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 });
    const sent = primary.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-primary-secret');
    expect(sent.body).toMatchObject({ model: 'gpt-x', temperature: 0.5, max_tokens: 4096 });
    expect(sent.body.stream).toBeUndefined();

    primary.enqueue({
      kind: 'reply',
      content: 'one two three',
      promptTokens: 9,
      completionTokens: 3,
    });
    const stream = await client.chat.completions.create({
      model: 'fake/gpt',
      messages: [{ role: 'user', content: 'stream please' }],
      stream: true,
    });
    let text = '';
    const chunks = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(text).toBe('one two three');
    // Usage was not asked for: no usage chunk, but the upstream was asked and it is billed.
    expect(chunks.every((c) => c.usage === undefined || c.usage === null)).toBe(true);
    expect(primary.requests.at(-1)?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    const ledger = await ledgerOf(id);
    expect(ledger.reserved).toBe(0);
    expect(ledger.usage.map((r: { amount_units: number }) => r.amount_units)).toEqual([
      -fakeCost(21, 4),
      -fakeCost(9, 3),
    ]);
    expect(ledger.balance).toBe(1_000_000 - fakeCost(21, 4) - fakeCost(9, 3));
  });

  it('falls over to the next route on a transient failure before the first byte', async () => {
    const { client } = await account(1);
    const before = backup.requests.length;
    primary.enqueue({ kind: 'status', status: 503 }, { kind: 'status', status: 429 });
    const completion = await client.chat.completions.create({
      model: 'fake/gpt',
      messages: [{ role: 'user', content: 'anyone there?' }],
    });
    expect(completion.choices[0].message.content).toBe('Fake reply to: anyone there?');
    expect(backup.requests.at(-1)?.body.model).toBe('gpt-y');
    const stream = await client.chat.completions.create({
      model: 'fake/gpt',
      messages: [{ role: 'user', content: 'stream anyone' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Fake reply to: stream anyone');
    expect(backup.requests.length).toBe(before + 2);
  });

  it('maps upstream failures to chat errors and releases everything', async () => {
    const { id, client } = await account(1);
    const ask = (model = 'fake/gpt') =>
      apiError(
        client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] }),
      );

    primary.enqueue({ kind: 'status', status: 500 });
    backup.enqueue({ kind: 'status', status: 502 });
    const down = await ask();
    expect(down.status).toBe(503);
    expect(down.type).toBe('server_error');

    primary.enqueue({
      kind: 'status',
      status: 400,
      message: 'temperature is weird',
      param: 'temperature',
    });
    const refused = await ask('fake/solo');
    expect(refused.status).toBe(400);
    expect(refused.error).toEqual({
      message: 'temperature is weird',
      type: 'invalid_request_error',
      param: 'temperature',
    });

    primary.enqueue({ kind: 'status', status: 401, message: 'bad key sk-primary-secret' });
    const auth = await ask('fake/solo');
    expect(auth.status).toBe(502);
    expect(auth.type).toBe('api_error');
    expect(JSON.stringify(auth.error)).not.toContain('sk-primary');

    expect(await ledgerOf(id)).toEqual({ balance: 1_000_000, reserved: 0, usage: [] });
  });

  it('aborts the upstream when the client disconnects mid-stream, and charges nothing', async () => {
    const { id, client } = await account(1);
    primary.enqueue({ kind: 'reply', content: 'word '.repeat(200).trim(), wordDelayMs: 50 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'fake/solo', messages: [{ role: 'user', content: 'long please' }], stream: true },
      { signal: controller.signal },
    );
    let words = 0;
    // The client stops reading and closes its connection (the SDK ends the loop quietly).
    try {
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta?.content) words += 1;
        if (words === 3) controller.abort();
      }
    } catch {
      // an AbortError is as good as a quiet end
    }
    expect(words).toBe(3);
    const upstreamCall = primary.requests.at(-1)!;
    const deadline = Date.now() + 5000;
    while (!upstreamCall.closedEarly && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    expect(upstreamCall.closedEarly).toBe(true);
    let ledger = await ledgerOf(id);
    while (ledger.reserved !== 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      ledger = await ledgerOf(id);
    }
    expect(ledger).toEqual({ balance: 1_000_000, reserved: 0, usage: [] });
  });

  it('a broken upstream stream ends with an error event and costs nothing', async () => {
    const { id, client } = await account(1);
    primary.enqueue({ kind: 'break-stream', words: 2 });
    const stream = await client.chat.completions.create({
      model: 'fake/solo',
      messages: [{ role: 'user', content: 'a b c d e' }],
      stream: true,
    });
    const failure = await apiError(
      (async () => {
        for await (const _chunk of stream) {
          // drain
        }
      })(),
    );
    expect(failure.error).toMatchObject({ type: 'server_error' });
    expect(await ledgerOf(id)).toEqual({ balance: 1_000_000, reserved: 0, usage: [] });
  });

  it("counts against the calling key's spend limit: the charge stays, the rest of the bound returns, a full key is refused", async () => {
    const { id, client } = await account(1);
    // A $1 daily limit, set before the key's first use (no gateway has cached it yet).
    await db.query(
      `UPDATE accounts.api_keys SET spend_limit_units = 1000000, spend_period = 'day' WHERE account_id = $1`,
      [id],
    );
    const [{ id: keyId }] = await db.query(
      `SELECT id FROM accounts.api_keys WHERE account_id = $1`,
      [id],
    );
    const completion = await client.chat.completions.create({
      model: 'local/chat',
      messages: [{ role: 'user', content: 'What is the capital of France?' }],
    });
    const cost = localCost(completion.usage!.prompt_tokens, completion.usage!.completion_tokens);
    const counter = async (): Promise<number> =>
      (await db.query(`SELECT used_units FROM billing.key_spend WHERE key_id = $1`, [keyId]))[0]
        .used_units;
    expect(await counter()).toBe(cost);
    const [record] = await db.query(
      `SELECT api_key_id FROM billing.records WHERE account_id = $1 AND type = 'usage'`,
      [id],
    );
    expect(record.api_key_id).toBe(keyId);

    // The key has (nearly) spent its day: the next call's bound does not fit.
    await db.query(`UPDATE billing.key_spend SET used_units = 999999 WHERE key_id = $1`, [keyId]);
    const full = await apiError(
      client.chat.completions.create({
        model: 'local/chat',
        messages: [{ role: 'user', content: 'again' }],
      }),
    );
    expect(full.status).toBe(402);
    expect(full.error).toEqual({
      message: expect.stringMatching(
        /^API key spend limit reached\. Limit: \$1\.000 per day, spent: \$1\.000, required: \$0\.\d{3}\.$/,
      ),
      type: 'insufficient_quota',
      param: null,
    });
    expect(await ledgerOf(id)).toMatchObject({ reserved: 0, balance: 1_000_000 - cost });
    await db.query(`UPDATE billing.key_spend SET used_units = $2 WHERE key_id = $1`, [keyId, cost]);
  });

  it('leaves the ledger audit clean for chat accounts', async () => {
    const report = await new AuditLedgerUseCase(new LedgerAuditRepository(db)).execute({
      horizonMs: 3_600_000,
    });
    expect(accounts.length).toBeGreaterThan(5);
    expect(report.failing.filter((f) => accounts.includes(f.accountId))).toEqual([]);
  });
});
