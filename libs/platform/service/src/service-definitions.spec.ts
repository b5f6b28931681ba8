import {
  DatabaseConfig,
  HttpConfig,
  loadConfig,
  RedisConfig,
  StorageConfig,
  WebhookConfig,
} from '@genhub/config';
import { environmentPiecesOf, SERVICE_NAMES, SERVICES } from './service-definitions.constants';

/** The least an operator must give any app. */
const ENV = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/genhub',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

describe('the service definitions', () => {
  it('start every app from its defaults and the two connection strings', () => {
    for (const name of SERVICE_NAMES)
      for (const piece of SERVICES[name].pieces)
        expect(() => loadConfig(piece, ENV, SERVICES[name].defaults)).not.toThrow();
  });

  it('give the four apps the distinct ports npm start and the docs expect', () => {
    const ports = SERVICE_NAMES.map(
      (name) => loadConfig(HttpConfig, ENV, SERVICES[name].defaults).PORT,
    );
    expect(ports).toEqual([3000, 3001, 3002, 3003]);
  });

  it('give the dispatcher its larger pool, and an operator value still wins', () => {
    const { defaults } = SERVICES['webhook-dispatcher'];
    expect(loadConfig(DatabaseConfig, ENV, defaults).DATABASE_POOL_SIZE).toBe(30);
    expect(
      loadConfig(DatabaseConfig, { ...ENV, DATABASE_POOL_SIZE: '12' }, defaults).DATABASE_POOL_SIZE,
    ).toBe(12);
    expect(loadConfig(DatabaseConfig, ENV, SERVICES.billing.defaults).DATABASE_POOL_SIZE).toBe(10);
  });

  it('load storage only where files are stored, webhook settings only in the dispatcher', () => {
    const loading = (piece: object) =>
      SERVICE_NAMES.filter((name) => (SERVICES[name].pieces as readonly object[]).includes(piece));
    expect(loading(StorageConfig)).toEqual(['gateway', 'task-worker']);
    expect(loading(WebhookConfig)).toEqual(['webhook-dispatcher']);
  });

  it('let every app reach Redis standalone, through Sentinel or on a Cluster', () => {
    const topologies = [
      { REDIS_URL: 'rediss://:pw@cache:6380' },
      { REDIS_SENTINELS: 's0:26379,s1:26379', REDIS_SENTINEL_MASTER: 'genhub' },
      { REDIS_CLUSTER_NODES: 'r0:6379,r1:6379', QUEUE_PREFIX: '{genhub}', REDIS_PASSWORD: 'pw' },
    ];
    for (const name of SERVICE_NAMES) {
      expect(SERVICES[name].pieces).toContain(RedisConfig);
      const kinds = topologies.map(
        (redis) =>
          loadConfig(
            RedisConfig,
            { DATABASE_URL: ENV.DATABASE_URL, ...redis },
            SERVICES[name].defaults,
          ).topology.kind,
      );
      expect(kinds).toEqual(['standalone', 'sentinel', 'cluster']);
    }
  });

  it('count the tracing settings among what each app reads from the environment', () => {
    for (const name of SERVICE_NAMES)
      expect(environmentPiecesOf(name).map((piece) => piece.name)).toContain('TracingConfig');
  });
});
