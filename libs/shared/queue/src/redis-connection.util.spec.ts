import { Cluster } from 'ioredis';
import { loadConfig, RedisConfig } from '@genhub/config';
import { bullConnection, redisConnection, redisOptions } from './redis-connection.util';

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
