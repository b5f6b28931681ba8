import { mkdtemp, rm } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const S3rver = require('s3rver');
import { loadConfig, StorageConfig } from '@genhub/config';
import { ReadinessRegistry } from '@genhub/observability';
import {
  createTestCertificateAuthority,
  startTlsProxy,
  type TestCertificateAuthority,
  type TlsProxy,
} from '@genhub/testing';
import { createObjectStorage, S3Storage } from '@genhub/storage';

const BUCKET = 'genhub-tls';

/**
 * S3 over HTTPS with a private CA (decision 0138): s3rver behind a TLS
 * endpoint whose certificate the test's CA signed. S3_TLS_CA makes uploads
 * and downloads work; without it every call fails with one clear line, and
 * the readiness check says it is TLS.
 */
describe('S3 over HTTPS with a private CA (S3_TLS_CA)', () => {
  let dir: string;
  let server: { run(): Promise<AddressInfo>; close(): Promise<void> };
  let ca: TestCertificateAuthority;
  let proxy: TlsProxy;
  const clients: S3Storage[] = [];

  const s3Env = () => ({
    S3_ENDPOINT: proxy.url,
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  });
  const storageWith = (env: Record<string, string>) => {
    const storage = createObjectStorage(loadConfig(StorageConfig, { ...s3Env(), ...env }));
    expect(storage).toBeInstanceOf(S3Storage);
    clients.push(storage as S3Storage);
    return storage;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genhub-s3-tls-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await server.run();
    ca = createTestCertificateAuthority();
    proxy = await startTlsProxy(port, ca.issue(['localhost', '127.0.0.1']));
  });

  afterAll(async () => {
    for (const client of clients) client.client.destroy();
    await proxy?.close();
    await server?.close();
    ca?.remove();
    await rm(dir, { recursive: true, force: true });
  });

  it('uploads and downloads through the TLS endpoint with S3_TLS_CA (a file or PEM text)', async () => {
    for (const setting of [ca.file, ca.pem]) {
      const storage = storageWith({ S3_TLS_CA: setting });
      const body = Buffer.from(`over TLS, CA given as ${setting === ca.file ? 'a file' : 'text'}`);
      await storage.put('tls/object.txt', body, { contentType: 'text/plain' });
      const object = await storage.get('tls/object.txt');
      const chunks: Buffer[] = [];
      for await (const chunk of object?.body ?? []) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe(body.toString());
      await expect(storage.check()).resolves.toBeUndefined();
    }
  });

  it('fails every call with one clear line without it; readiness names TLS', async () => {
    const storage = storageWith({});
    const untrusted = new RegExp(
      `^S3 endpoint ${proxy.url.replace(/\./g, '\\.')}: TLS: certificate not trusted \\([A-Z_]+: [^)]+\\); set S3_TLS_CA to the CA bundle that signed its certificate$`,
    );
    await expect(
      storage.put('tls/refused.txt', Buffer.from('x'), { contentType: 'text/plain' }),
    ).rejects.toThrow(untrusted);
    await expect(storage.get('tls/object.txt')).rejects.toThrow(untrusted);

    const readiness = new ReadinessRegistry();
    readiness.register('storage', () => storage.check());
    const { ok, checks } = await readiness.run(10_000);
    expect(ok).toBe(false);
    expect(checks.storage).toMatch(/^failed: TLS: certificate not trusted \([A-Z_]+: [^)]+\)$/);
  });

  it('refuses a CA setting that is neither PEM text nor a PEM file, at start-up', () => {
    expect(() =>
      loadConfig(StorageConfig, { ...s3Env(), S3_TLS_CA: join(dir, 'none.pem') }),
    ).toThrow(
      /^Invalid configuration: S3_TLS_CA must be a PEM file's path or PEM text \(no such file\)/,
    );
  });
});
