import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, SecurityConfig, trustedCas } from '@genhub/config';
import { trustForOutboundFetch } from '@genhub/outbound';
import { OpenAiChatBackend } from '@genhub/providers';
import { MediaFetcher } from '@genhub/storage';
import {
  createTestCertificateAuthority,
  FakeOpenAiChat,
  InMemoryObjectStorage,
  startTlsProxy,
  type TestCertificateAuthority,
  TINY_PNG,
  type TlsProxy,
} from '@genhub/testing';

/**
 * Outbound HTTPS to hosts on a private network whose certificates a private
 * CA signed (decision 0138): refused — certificates are always verified —
 * until OUTBOUND_TLS_CA names the CA. Media fetches (their own agent) and
 * upstream providers (the process's fetch). Webhooks: the dispatcher's tests.
 */
describe('outbound HTTPS with a private CA (OUTBOUND_TLS_CA)', () => {
  let ca: TestCertificateAuthority;
  let media: Server;
  let mediaTls: TlsProxy;
  let upstream: FakeOpenAiChat;
  let upstreamTls: TlsProxy;

  beforeAll(async () => {
    ca = createTestCertificateAuthority();
    const certificate = ca.issue(['localhost', '127.0.0.1']);
    media = createServer((_, res) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG),
    );
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    mediaTls = await startTlsProxy((media.address() as AddressInfo).port, certificate);
    upstream = await FakeOpenAiChat.start();
    upstreamTls = await startTlsProxy(upstream.port, certificate);
  });

  afterAll(async () => {
    // Outbound fetch back to Node's defaults.
    trustForOutboundFetch(undefined);
    await mediaTls?.close();
    await upstreamTls?.close();
    media?.closeAllConnections();
    await new Promise((resolve) => media?.close(resolve));
    await upstream?.close();
    ca?.remove();
  });

  const security = (env: Record<string, string>) =>
    loadConfig(SecurityConfig, { ALLOW_PRIVATE_NETWORK_URLS: 'true', ...env });

  it('fetches media from the host only with the CA in OUTBOUND_TLS_CA', async () => {
    const storage = new InMemoryObjectStorage();
    const url = `${mediaTls.url}/cat.png`;
    const plain = new MediaFetcher({ storage, allowPrivateNetwork: true });
    await expect(plain.fetch(url, 'image')).rejects.toThrow(
      /^Media URL https:\/\/127\.0\.0\.1:\d+\/cat\.png could not be downloaded: TLS: certificate not trusted \([A-Z_]+: [^)]+\)$/,
    );
    const trusting = new MediaFetcher({
      storage,
      allowPrivateNetwork: true,
      trustedCas: trustedCas(security({ OUTBOUND_TLS_CA: ca.file }).OUTBOUND_TLS_CA),
    });
    const fetched = await trusting.fetch(url, 'image');
    expect(fetched.data.equals(TINY_PNG)).toBe(true);
    await plain.close();
    await trusting.close();
  });

  it('calls an upstream provider over HTTPS only with the CA in OUTBOUND_TLS_CA', async () => {
    const backend = new OpenAiChatBackend({
      baseUrl: `${upstreamTls.url}/v1`,
      apiKey: 'sk-tls',
      timeoutMs: 5000,
    });
    const request = { messages: [{ role: 'user' as const, content: 'hi' }], maxTokens: 10 };
    const context = () => ({ signal: new AbortController().signal, upstreamModel: 'up' });
    await expect(backend.complete(request, context())).rejects.toMatchObject({
      kind: 'transient',
    });
    expect(upstream.requests).toHaveLength(0);

    // What every app does at start-up (ServiceModule) with the setting.
    trustForOutboundFetch(trustedCas(security({ OUTBOUND_TLS_CA: ca.pem }).OUTBOUND_TLS_CA));
    upstream.enqueue({ kind: 'reply', content: 'over tls', promptTokens: 1, completionTokens: 2 });
    expect(await backend.complete(request, context())).toMatchObject({ content: 'over tls' });
    expect(upstream.requests).toHaveLength(1);
  });
});
