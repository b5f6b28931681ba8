import { Cluster } from 'ioredis';
import { loadConfig, RedisConfig } from '@genhub/config';
import {
  bullConnection,
  createRedisClient,
  redisConnection,
  redisOptions,
} from './redis-connection.util';

const config = (env: Record<string, string>) => loadConfig(RedisConfig, env);

describe('Redis connections of each topology', () => {
  it('standalone: the URL’s host, port, credentials, database and TLS', () => {
    expect(
      redisOptions(config({ REDIS_URL: 'rediss://app:p%40ss@cache.internal:6380/3' }).topology),
    ).toEqual({
      host: 'cache.internal',
      port: 6380,
      username: 'app',
      password: 'p@ss',
      db: 3,
      tls: {},
    });
    expect(redisConnection('redis://127.0.0.1')).toMatchObject({
      host: '127.0.0.1',
      port: 6379,
      db: 0,
      tls: undefined,
      maxRetriesPerRequest: null,
    });
  });

  it('Sentinel: ioredis asks the Sentinels for the named primary, with both passwords and TLS', () => {
    const options = redisOptions(
      config({
        REDIS_SENTINELS: 's0:26379,s1:26379',
        REDIS_SENTINEL_MASTER: 'genhub',
        REDIS_SENTINEL_PASSWORD: 'sp',
        REDIS_PASSWORD: 'np',
        REDIS_TLS: 'true',
      }).topology,
      { maxRetriesPerRequest: 1 },
    );
    expect(options).toEqual({
      sentinels: [
        { host: 's0', port: 26379 },
        { host: 's1', port: 26379 },
      ],
      name: 'genhub',
      sentinelPassword: 'sp',
      username: undefined,
      password: 'np',
      tls: {},
      enableTLSForSentinelMode: true,
      sentinelTLS: {},
      maxRetriesPerRequest: 1,
    });
  });

  it('TLS: the CA bundle on every connection (standalone, Sentinels and their nodes); a cluster keeps the names it was given', () => {
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const standalone = { kind: 'standalone' as const, url: 'rediss://cache:6380', ca };
    expect(redisOptions(standalone).tls).toEqual({ ca });
    expect(redisOptions({ ...standalone, url: 'redis://cache:6379' }).tls).toBeUndefined();
    const auth = { username: 'app', password: 'np', tls: true, ca };
    const sentinel = redisOptions({
      kind: 'sentinel',
      sentinels: [{ host: 's0', port: 26379 }],
      master: 'mymaster',
      auth,
    });
    expect([sentinel.tls, sentinel.sentinelTLS, sentinel.enableTLSForSentinelMode]).toEqual([
      { ca },
      { ca },
      true,
    ]);
    const cluster = createRedisClient(
      config({
        REDIS_CLUSTER_NODES: 'redis-0.internal:6379',
        QUEUE_PREFIX: '{g}',
        REDIS_TLS: 'true',
      }),
      { lazyConnect: true },
    ) as Cluster;
    try {
      expect(cluster.options.redisOptions?.tls).toEqual({});
      // ioredis would resolve the seed to an address, and TLS check the certificate against it.
      let resolved: string | undefined;
      cluster.options.dnsLookup?.('redis-0.internal', (_error, address) => (resolved = address));
      expect(resolved).toBe('redis-0.internal');
    } finally {
      cluster.disconnect();
    }
  });

  it('BullMQ gets options for standalone and Sentinel, its own Cluster client on a cluster', () => {
    expect(bullConnection(config({ REDIS_SENTINELS: 's0:26379' }))).toMatchObject({
      sentinels: [{ host: 's0', port: 26379 }],
      maxRetriesPerRequest: null,
    });
    const cluster = config({
      REDIS_CLUSTER_NODES: '127.0.0.1:1',
      QUEUE_PREFIX: '{g}',
      REDIS_PASSWORD: 'np',
    });
    const first = bullConnection(cluster);
    const second = bullConnection(cluster);
    try {
      expect(first).toBeInstanceOf(Cluster);
      expect(second).not.toBe(first);
      expect((first as Cluster).options.redisOptions).toMatchObject({
        password: 'np',
        maxRetriesPerRequest: null,
      });
    } finally {
      (first as Cluster).disconnect();
      (second as Cluster).disconnect();
    }
  });
});
