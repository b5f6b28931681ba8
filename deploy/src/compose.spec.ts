import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '@genhub/config';
import { APP_PIECES, APPS, variablesOf, variablesOfApp } from './config-vars';
import { workspaceRoot } from './kustomize';

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
}

const composeFile = join(workspaceRoot, 'docker/compose.yml');
const compose = parse(readFileSync(composeFile, 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;

/** Compose's ${VAR:-default} interpolation, with the defaults (no .env). */
const interpolate = (value: string) =>
  String(value).replace(/\$\{([A-Z_]+)(?::-([^}]*))?\}/g, (_, _name, fallback) => fallback ?? '');
const envOf = (service: Service) =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(v)]),
  );

const NEEDED = ['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'PORT'];

/** Object storage: only the apps that store files get its settings and keys. */
const STORES_FILES = new Set(['gateway', 'task-worker']);
const STORAGE = [
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'CDN_URL',
];

describe('docker/compose.yml', () => {
  it('has the backing services, the one-shot jobs and every app', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'billing',
        'gateway',
        'migrate',
        'minio',
        'minio-init',
        'postgres',
        'redis',
        'task-worker',
        'webhook-dispatcher',
      ].sort(),
    );
    for (const name of ['postgres', 'redis', 'minio'])
      expect(services[name].healthcheck?.test.length).toBeGreaterThan(0);
  });

  describe.each(APPS)('%s', (app) => {
    const service = services[app];
    const env = envOf(service);

    it('is built from docker/Dockerfile for this app and port', () => {
      expect(service.build).toEqual({
        context: '..',
        dockerfile: 'docker/Dockerfile',
        args: { APP: app, PORT: env.PORT },
      });
      expect(service.ports).toEqual([`${env.PORT}:${env.PORT}`]);
      expect(service.healthcheck?.test.join(' ')).toContain(`127.0.0.1:${env.PORT}/ready`);
    });

    it('sets only configuration variables of this app, and everything it needs', () => {
      const known = variablesOfApp(app);
      expect(Object.keys(env).filter((k) => !known.has(k))).toEqual([]);
      for (const name of NEEDED) expect(env[name]).toBeTruthy();
      for (const name of STORAGE)
        expect([name, Boolean(env[name])]).toEqual([name, STORES_FILES.has(app)]);
      if (app === 'gateway')
        for (const name of ['ADMIN_TOKEN', 'API_KEY_PEPPER', 'PUBLIC_BASE_URL'])
          expect(env[name]).toBeTruthy();
    });

    it('points object storage at MinIO with path-style addressing (apps that store files)', () => {
      if (!STORES_FILES.has(app)) return expect(env.S3_ACCESS_KEY_ID).toBeUndefined();
      expect(env).toMatchObject({
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_BUCKET: 'genhub',
      });
      expect(env.S3_ACCESS_KEY_ID).toBe(interpolate(services.minio.environment!.MINIO_ROOT_USER));
      expect(env.S3_SECRET_ACCESS_KEY).toBe(
        interpolate(services.minio.environment!.MINIO_ROOT_PASSWORD),
      );
      expect(env.CDN_URL).toMatch(/:9000\/genhub$/);
    });

    it('passes its own start-up validation with these values', () => {
      for (const piece of APP_PIECES[app]) expect(() => loadConfig(piece, env)).not.toThrow();
      expect(env.DATABASE_URL).toContain('@postgres:5432/');
      expect(env.REDIS_URL).toBe('redis://redis:6379');
    });

    it('starts after the database, Redis, the bucket and the migrations', () => {
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        'minio-init': { condition: 'service_completed_successfully' },
        migrate: { condition: 'service_completed_successfully' },
      });
    });
  });

  it('migrates with the gateway image and only the database URL', () => {
    const migrate = services.migrate;
    expect(migrate.image).toBe(services.gateway.image);
    expect(migrate.build).toEqual(services.gateway.build);
    expect(migrate.command).toEqual([
      'node',
      '--enable-source-maps',
      'dist/gateway/apps/gateway/src/cli/migrate.js',
    ]);
    expect(Object.keys(envOf(migrate))).toEqual(['DATABASE_URL']);
    expect(envOf(migrate).DATABASE_URL).toBe(envOf(services.gateway).DATABASE_URL);
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it('the variable check itself catches a misspelt variable', () => {
    const known = variablesOfApp('billing');
    expect(known.has('DATABASE_URL')).toBe(true);
    expect(known.has('DATABASE_URI')).toBe(false);
    expect(known.has('ADMIN_TOKEN')).toBe(false);
    expect(variablesOf(APP_PIECES.gateway[0])).toEqual(
      expect.arrayContaining(['PORT', 'BODY_LIMIT_BYTES']),
    );
  });
});

describe('docker/Dockerfile', () => {
  const dockerfile = readFileSync(join(workspaceRoot, 'docker/Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds in one stage and runs production dependencies as a non-root user in another', () => {
    expect(dockerfile).toContain('RUN npm ci --no-audit --no-fund');
    expect(dockerfile).toMatch(/npx nx build "\$APP"/);
    expect(dockerfile).toContain('npm ci --omit=dev');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(runtime).toMatch(/^EXPOSE \$\{PORT\}$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n.*\/health/m);
    expect(runtime).toContain('CMD ["node", "--enable-source-maps", "main.js"]');
    expect(runtime).not.toMatch(/COPY --from=build \/repo\/node_modules/);
  });
});
