import {
  ConfigError,
  DatabaseConfig,
  HttpConfig,
  loadConfig,
  MetricsConfig,
  ModeConfig,
  PepperConfig,
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
/** ... and the gateway, which hashes API keys and signs tokens (no default). */
const PEPPER = { API_KEY_PEPPER: 'a-development-pepper' };

const loading = (piece: object) =>
  SERVICE_NAMES.filter((name) => (SERVICES[name].pieces as readonly object[]).includes(piece));

/** The first refusal of an app's pieces, as its start-up line would say it. */
function refusalOf(name: (typeof SERVICE_NAMES)[number], env: Record<string, string>) {
  try {
    for (const piece of SERVICES[name].pieces) loadConfig(piece, env, SERVICES[name].defaults);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

describe('the service definitions', () => {
  it('start every app from its defaults and the two connection strings (the gateway: and a pepper)', () => {
    for (const name of SERVICE_NAMES)
      expect(refusalOf(name, { ...ENV, ...(name === 'gateway' ? PEPPER : {}) })).toBeUndefined();
    expect(refusalOf('gateway', ENV)).toMatch(/^Invalid configuration: API_KEY_PEPPER is required/);
  });

  it('give the pepper and the metrics token to the gateway only, the mode to every app', () => {
    expect(loading(PepperConfig)).toEqual(['gateway']);
    expect(loading(MetricsConfig)).toEqual(['gateway']);
    expect(loading(ModeConfig)).toEqual(SERVICE_NAMES);
  });

  it('in production, refuse what each app loads and nothing else (decision 0127)', () => {
    const production = { ...ENV, NODE_ENV: 'production' };
    const secrets = {
      API_KEY_PEPPER: '5d0c1f9e7a3b2c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d',
      ADMIN_TOKEN: 'e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f1a3b5c7d9e1f3',
      METRICS_TOKEN: '0a2b4c6d8e0f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b',
    };
    // The workers load no secret and no simulator switch they could refuse.
    for (const name of ['webhook-dispatcher', 'billing'] as const)
      expect(refusalOf(name, { ...production, ENABLE_SIMULATOR: 'true' })).toBeUndefined();
    expect(refusalOf('task-worker', { ...production, ENABLE_SIMULATOR: 'true' })).toMatch(
      /^Invalid configuration: ENABLE_SIMULATOR must be false in production/,
    );
    expect(refusalOf('task-worker', production)).toBeUndefined();
    expect(refusalOf('gateway', { ...production, ...secrets })).toBeUndefined();
    for (const name of Object.keys(secrets)) {
      const { [name as keyof typeof secrets]: _, ...missing } = secrets;
      expect(refusalOf('gateway', { ...production, ...missing })).toMatch(
        new RegExp(`^Invalid configuration: ${name} is required`),
      );
    }
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
