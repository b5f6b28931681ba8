import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  call,
  createAccountWithKey,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

/** What a client (or a proxy) claims about the address it called. */
const FORWARDED = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

/**
 * The links in answers (a v3 task's `urls.get`, a direct upload's PUT URL)
 * follow the address the client called when PUBLIC_BASE_URL is unset. Whose
 * X-Forwarded-Host/-Proto count is TRUST_PROXY's to say (decision 0128).
 */
describe('X-Forwarded-* and the links in answers (in-process gateway, PUBLIC_BASE_URL unset)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'genhub-trusted-proxy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The origins of the links two answers give to a request carrying `headers`. */
  async function linkOrigins(gw: RunningGateway, key: string, headers: Record<string, string>) {
    const authorization = `Bearer ${key}`;
    const submitted = await call(`${gw.url}/api/v3/local/simulator/test`, {
      method: 'POST',
      headers: { authorization, ...headers },
      body: { prompt: 'where do my links point?' },
    });
    const ticket = await call(`${gw.url}/api/v3/media/uploads`, {
      method: 'POST',
      headers: { authorization, ...headers },
      body: { filename: 'cat.png', size: 100 },
    });
    const replicated = await call(`${gw.url}/replicate/v1/predictions`, {
      method: 'POST',
      headers: { authorization, ...headers },
      body: { version: 'local~simulator~test', input: { prompt: 'and a Replicate one?' } },
    });
    expect([submitted.status, ticket.status, replicated.status]).toEqual([200, 200, 201]);
    const submit = (submitted.body as { data: { urls: { get: string } } }).data;
    const upload = (ticket.body as { data: { upload: { url: string } } }).data;
    const prediction = replicated.body as { urls: { get: string } };
    const origins = [new URL(submit.urls.get).origin, new URL(upload.upload.url).origin];
    // The Replicate-compatible links follow the same rule, under its root (decision 0137).
    expect(prediction.urls.get).toMatch(/\/replicate\/v1\/predictions\/[0-9a-f-]{36}$/);
    expect(new URL(prediction.urls.get).origin).toBe(origins[0]);
    return origins;
  }

  describe('TRUST_PROXY unset (the default)', () => {
    let gw: RunningGateway;
    let key: string;
    beforeAll(async () => {
      gw = await startGateway({
        TRUST_PROXY: undefined,
        PUBLIC_BASE_URL: undefined,
        STORAGE_DIR: join(dir, 'off'),
      });
      ({ key } = await createAccountWithKey(gw.url, 1));
    });
    afterAll(() => gw.close());

    it('ignores X-Forwarded-Host and X-Forwarded-Proto: links name the address the connection reached', async () => {
      expect(await linkOrigins(gw, key, FORWARDED)).toEqual([gw.url, gw.url]);
      expect(await linkOrigins(gw, key, {})).toEqual([gw.url, gw.url]);
    });
  });

  describe('TRUST_PROXY naming the proxy the requests come from', () => {
    let gw: RunningGateway;
    let key: string;
    beforeAll(async () => {
      gw = await startGateway({
        TRUST_PROXY: '127.0.0.1',
        PUBLIC_BASE_URL: undefined,
        STORAGE_DIR: join(dir, 'on'),
      });
      ({ key } = await createAccountWithKey(gw.url, 1));
    });
    afterAll(() => gw.close());

    it('believes the listed proxy: links name the host and scheme it forwards', async () => {
      expect(await linkOrigins(gw, key, FORWARDED)).toEqual([
        'https://evil.example',
        'https://evil.example',
      ]);
      expect(await linkOrigins(gw, key, {})).toEqual([gw.url, gw.url]);
    });
  });

  describe('TRUST_PROXY as a hop count', () => {
    let gw: RunningGateway;
    let key: string;
    beforeAll(async () => {
      gw = await startGateway({
        TRUST_PROXY: '1',
        PUBLIC_BASE_URL: undefined,
        STORAGE_DIR: join(dir, 'hops'),
      });
      ({ key } = await createAccountWithKey(gw.url, 1));
    });
    afterAll(() => gw.close());

    it('believes the one hop nearest the server, whatever its address', async () => {
      expect(await linkOrigins(gw, key, FORWARDED)).toEqual([
        'https://evil.example',
        'https://evil.example',
      ]);
    });
  });

  describe('TRUST_PROXY naming another address', () => {
    let gw: RunningGateway;
    let key: string;
    beforeAll(async () => {
      gw = await startGateway({
        TRUST_PROXY: '10.0.0.0/8',
        PUBLIC_BASE_URL: undefined,
        STORAGE_DIR: join(dir, 'other'),
      });
      ({ key } = await createAccountWithKey(gw.url, 1));
    });
    afterAll(() => gw.close());

    it('does not believe a peer outside the list', async () => {
      expect(await linkOrigins(gw, key, FORWARDED)).toEqual([gw.url, gw.url]);
    });
  });
});
