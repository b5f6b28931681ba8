import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './load-config.util';
import { RedisConfig } from './redis.config';

/** The one line a refused configuration stops the app with. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(RedisConfig, env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('RedisConfig: one topology', () => {
  it('is standalone at the default URL when nothing is set', () => {
    expect(loadConfig(RedisConfig, {}).topology).toEqual({
      kind: 'standalone',
      url: 'redis://127.0.0.1:6379',
    });
    expect(loadConfig(RedisConfig, { REDIS_URL: 'rediss://:pw@cache:6380/2' }).topology).toEqual({
      kind: 'standalone',
      url: 'rediss://:pw@cache:6380/2',
    });
  });

  it('finds the primary through Sentinel: addresses, master name (default mymaster), passwords', () => {
    const config = loadConfig(RedisConfig, {
      REDIS_SENTINELS: 'sentinel-0:26379, 10.0.0.7:26379,[::1]:26380',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      REDIS_PASSWORD: 'node-secret',
    });
    expect(config.topology).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 'sentinel-0', port: 26379 },
        { host: '10.0.0.7', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      master: 'mymaster',
      sentinelPassword: 'sentinel-secret',
      auth: { username: undefined, password: 'node-secret', tls: false },
    });
    expect(
      loadConfig(RedisConfig, { REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_MASTER: 'genhub-1' })
        .topology,
    ).toMatchObject({ master: 'genhub-1' });
  });

  it('opens a Redis Cluster from seed nodes with a hash-tagged prefix', () => {
    const config = loadConfig(RedisConfig, {
      REDIS_CLUSTER_NODES: 'redis-0:6379,redis-1:6379',
      QUEUE_PREFIX: '{genhub}',
      REDIS_USERNAME: 'genhub',
      REDIS_TLS: 'true',
    });
    expect(config.topology).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'redis-0', port: 6379 },
        { host: 'redis-1', port: 6379 },
      ],
      auth: { username: 'genhub', password: undefined, tls: true },
    });
  });

  it('refuses two topologies at once, naming both', () => {
    expect(refusal({ REDIS_URL: 'redis://r:6379', REDIS_SENTINELS: 's:26379' })).toBe(
      'Invalid configuration: REDIS_URL cannot be combined with REDIS_SENTINELS: set one Redis topology',
    );
    expect(
      refusal({ REDIS_SENTINELS: 's:26379', REDIS_CLUSTER_NODES: 'n:6379', QUEUE_PREFIX: '{g}' }),
    ).toBe(
      'Invalid configuration: REDIS_SENTINELS cannot be combined with REDIS_CLUSTER_NODES: set one Redis topology (got "s:26379")',
    );
    expect(
      refusal({ REDIS_URL: 'redis://r', REDIS_CLUSTER_NODES: 'n:1', QUEUE_PREFIX: '{g}' }),
    ).toBe(
      'Invalid configuration: REDIS_URL cannot be combined with REDIS_CLUSTER_NODES: set one Redis topology',
    );
  });

  it('refuses a cluster whose queue prefix has no hash tag', () => {
    expect(refusal({ REDIS_CLUSTER_NODES: 'n:6379' })).toBe(
      "Invalid configuration: QUEUE_PREFIX must be a hash tag such as {genhub} with REDIS_CLUSTER_NODES (each queue's keys must share one cluster slot) (not set)",
    );
    expect(refusal({ REDIS_CLUSTER_NODES: 'n:6379', QUEUE_PREFIX: 'genhub-eu' })).toContain(
      '(got "genhub-eu")',
    );
  });

  it('refuses node lists that are not host:port pairs', () => {
    expect(refusal({ REDIS_SENTINELS: 'sentinel-0' })).toBe(
      'Invalid configuration: REDIS_SENTINELS must be host:port pairs separated by commas (got "sentinel-0")',
    );
    expect(refusal({ REDIS_CLUSTER_NODES: 'redis://n:6379', QUEUE_PREFIX: '{g}' })).toBe(
      'Invalid configuration: REDIS_CLUSTER_NODES must be host:port pairs separated by commas (got "redis://n:6379")',
    );
  });

  it('refuses Sentinel and node settings without their topology, never printing a password', () => {
    expect(refusal({ REDIS_SENTINEL_MASTER: 'mymaster' })).toBe(
      'Invalid configuration: REDIS_SENTINEL_MASTER only applies with REDIS_SENTINELS (got "mymaster")',
    );
    expect(refusal({ REDIS_SENTINEL_PASSWORD: 'hunter2' })).toBe(
      'Invalid configuration: REDIS_SENTINEL_PASSWORD only applies with REDIS_SENTINELS',
    );
    expect(refusal({ REDIS_URL: 'redis://r:6379', REDIS_PASSWORD: 'hunter2' })).toBe(
      'Invalid configuration: REDIS_PASSWORD only applies with REDIS_SENTINELS or REDIS_CLUSTER_NODES (standalone: put it in REDIS_URL)',
    );
    expect(refusal({ REDIS_TLS: 'true' })).toBe(
      'Invalid configuration: REDIS_TLS only applies with REDIS_SENTINELS or REDIS_CLUSTER_NODES (standalone: use a rediss:// REDIS_URL) (got "true")',
    );
    expect(refusal({ REDIS_SENTINELS: 's:1', REDIS_TLS: 'yes' })).toBe(
      'Invalid configuration: REDIS_TLS must be a boolean value (got "yes")',
    );
  });
});

describe('RedisConfig: the CA bundle of TLS (REDIS_TLS_CA)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'genhub-redis-ca-'));
  const caFile = join(dir, 'ca.crt');
  let pem: string;

  beforeAll(() => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=genhub test ca',
        '-keyout',
        join(dir, 'ca.key'),
        '-out',
        caFile,
      ],
      { stdio: 'ignore' },
    );
    pem = readFileSync(caFile, 'utf8');
    writeFileSync(join(dir, 'key-only.pem'), readFileSync(join(dir, 'ca.key')));
    writeFileSync(
      join(dir, 'broken.pem'),
      pem.replace(/\n[A-Za-z0-9+/]{20}/, '\nnot-base64-at-all!!!'),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a PEM file or takes the PEM text, for every topology over TLS', () => {
    expect(
      loadConfig(RedisConfig, { REDIS_URL: 'rediss://u:p@cache:6380', REDIS_TLS_CA: caFile })
        .topology,
    ).toEqual({ kind: 'standalone', url: 'rediss://u:p@cache:6380', ca: pem });
    expect(
      loadConfig(RedisConfig, { REDIS_SENTINELS: 's:26379', REDIS_TLS: 'true', REDIS_TLS_CA: pem })
        .topology,
    ).toMatchObject({ kind: 'sentinel', auth: { tls: true, ca: pem } });
    expect(
      loadConfig(RedisConfig, {
        REDIS_CLUSTER_NODES: 'n:6379',
        QUEUE_PREFIX: '{g}',
        REDIS_TLS: 'true',
        REDIS_TLS_CA: caFile,
      }).topology,
    ).toMatchObject({ kind: 'cluster', auth: { tls: true, ca: pem } });
    // Unset: Node's public CAs.
    expect(loadConfig(RedisConfig, { REDIS_URL: 'rediss://cache:6380' }).topology).toEqual({
      kind: 'standalone',
      url: 'rediss://cache:6380',
      ca: undefined,
    });
  });

  it('refuses a bundle it cannot use, in one line naming the reason', () => {
    const tls = { REDIS_URL: 'rediss://cache:6380' };
    expect(refusal({ ...tls, REDIS_TLS_CA: join(dir, 'missing.crt') })).toBe(
      `Invalid configuration: REDIS_TLS_CA must be a PEM CA bundle or the path of one: it cannot read the file (ENOENT) (got "${join(dir, 'missing.crt')}")`,
    );
    expect(refusal({ ...tls, REDIS_TLS_CA: join(dir, 'key-only.pem') })).toContain(
      'REDIS_TLS_CA must be a PEM CA bundle or the path of one: it holds no PEM CERTIFICATE',
    );
    expect(refusal({ ...tls, REDIS_TLS_CA: join(dir, 'broken.pem') })).toContain(
      'it holds a CERTIFICATE that does not parse',
    );
  });

  it('refuses a bundle without TLS: a redis:// URL, or Sentinel or Cluster without REDIS_TLS', () => {
    const reason =
      'only applies with TLS: a rediss:// REDIS_URL, or REDIS_TLS=true with Sentinel or Cluster';
    expect(refusal({ REDIS_TLS_CA: caFile })).toBe(
      `Invalid configuration: REDIS_TLS_CA ${reason} (got "${caFile}")`,
    );
    expect(refusal({ REDIS_URL: 'redis://cache:6379', REDIS_TLS_CA: caFile })).toContain(reason);
    expect(refusal({ REDIS_SENTINELS: 's:26379', REDIS_TLS_CA: caFile })).toContain(reason);
  });
});
