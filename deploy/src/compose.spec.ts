import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '@genhub/config';
import { APP_PIECES, APPS, variablesOf, variablesOfApp } from './config-vars';
import {
  bucketPolicyProblems,
  type ComposeExposure,
  type ComposeService,
  composeExposureProblems,
  interpolate,
  interpolations,
} from './exposure';
import { workspaceRoot } from './kustomize';

interface Service extends ComposeService {
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const composeFile = join(workspaceRoot, 'docker/compose.yml');
const readCompose = () =>
  parse(readFileSync(composeFile, 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
  };
const services = readCompose().services;

/** The secrets `docker compose up` requires, as the operator generates them (docker/.env). */
const REQUIRED = [
  'ADMIN_TOKEN',
  'API_KEY_PEPPER',
  'METRICS_TOKEN',
  'MINIO_ROOT_PASSWORD',
  'POSTGRES_PASSWORD',
];
const DOT_ENV = Object.fromEntries(
  REQUIRED.map((name) => [name, createHash('sha256').update(name).digest('hex')]),
);
const envOf = (service: Service, dotEnv: Record<string, string> = DOT_ENV) =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(v, dotEnv)]),
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
      // The public API on every interface; a worker's management port on the loopback only.
      expect(service.ports).toEqual([
        app === 'gateway' ? `${env.PORT}:${env.PORT}` : `127.0.0.1:${env.PORT}:${env.PORT}`,
      ]);
      expect(service.healthcheck?.test.join(' ')).toContain(`127.0.0.1:${env.PORT}/ready`);
    });

    it('sets only configuration variables of this app, and everything it needs', () => {
      const known = variablesOfApp(app);
      expect(Object.keys(env).filter((k) => !known.has(k))).toEqual([]);
      for (const name of NEEDED) expect(env[name]).toBeTruthy();
      for (const name of STORAGE)
        expect([name, Boolean(env[name])]).toEqual([name, STORES_FILES.has(app)]);
      if (app === 'gateway')
        for (const name of ['ADMIN_TOKEN', 'API_KEY_PEPPER', 'METRICS_TOKEN', 'PUBLIC_BASE_URL'])
          expect(env[name]).toBeTruthy();
    });

    it('points object storage at MinIO with path-style addressing (apps that store files)', () => {
      if (!STORES_FILES.has(app)) return expect(env.S3_ACCESS_KEY_ID).toBeUndefined();
      expect(env).toMatchObject({
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_BUCKET: 'genhub',
      });
      expect(env.S3_ACCESS_KEY_ID).toBe(
        interpolate(services.minio.environment!.MINIO_ROOT_USER, DOT_ENV),
      );
      expect(env.S3_SECRET_ACCESS_KEY).toBe(
        interpolate(services.minio.environment!.MINIO_ROOT_PASSWORD, DOT_ENV),
      );
      expect(env.CDN_URL).toMatch(/:9000\/genhub$/);
    });

    it('passes its own start-up validation, in production mode, with generated secrets', () => {
      expect(env.NODE_ENV).toBe('production');
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
    const http = APP_PIECES.gateway.find((piece) => piece.name === 'HttpConfig');
    if (!http) throw new Error('the gateway loads no HttpConfig');
    expect(variablesOf(http)).toEqual(expect.arrayContaining(['PORT', 'BODY_LIMIT_BYTES']));
  });
});

describe('docker/compose.yml is safe to expose as shipped (decision 0127)', () => {
  const exposure = (s: Record<string, Service>): ComposeExposure => ({
    services: s,
    apps: APPS,
    publicApp: 'gateway',
    readHostFile: (path) => readFileSync(join(workspaceRoot, 'docker', path), 'utf8'),
  });

  it('has no working default credential, a listable bucket, a published console or a moving image', () => {
    expect(composeExposureProblems(exposure(services))).toEqual([]);
  });

  it('does not start without the secrets: each is required, and the refusal says how to make it', () => {
    const required = new Set<string>();
    for (const service of Object.values(services))
      for (const value of [
        ...Object.values(service.environment ?? {}),
        ...(service.entrypoint ?? []),
      ])
        for (const i of interpolations(value)) if (i.op === ':?') required.add(i.name);
    expect([...required].sort()).toEqual(REQUIRED);
    expect(() => envOf(services.gateway, {})).toThrow(
      'required variable POSTGRES_PASSWORD is missing a value: set POSTGRES_PASSWORD (openssl rand -hex 32) in the shell or docker/.env',
    );
    const { ADMIN_TOKEN: _, ...withoutAdmin } = DOT_ENV;
    expect(() => envOf(services.gateway, withoutAdmin)).toThrow(
      'required variable ADMIN_TOKEN is missing a value: set ADMIN_TOKEN (openssl rand -hex 32) in the shell or docker/.env',
    );
  });

  it('serves files by name to anyone and lists them to nobody', () => {
    const policy = JSON.parse(
      readFileSync(join(workspaceRoot, 'docker/minio/public-read-objects.json'), 'utf8'),
    );
    expect(policy.Statement).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: ['s3:GetObject'],
        Resource: ['arn:aws:s3:::genhub/*'],
      }),
    ]);
    expect(services['minio-init'].entrypoint?.join(' ')).toContain(
      'mc anonymous set-json /policies/public-read-objects.json local/genhub',
    );
    expect(services.minio.ports).toEqual(['9000:9000']);
  });

  it('the checks catch each unsafe file', () => {
    const s = readCompose().services;
    const gateway = s.gateway.environment as Record<string, string>;
    gateway.ADMIN_TOKEN = '${ADMIN_TOKEN:-genhub-dev-admin-token-change-me}';
    gateway.API_KEY_PEPPER = 'genhub-dev-pepper-change-me';
    gateway.METRICS_TOKEN = '${METRICS_TOKEN:?set METRICS_TOKEN}';
    gateway.NODE_ENV = 'development';
    s.minio.image = 'minio/minio:latest';
    s['minio-init'].image = 'minio/mc:edge';
    s.redis.image = 'redis';
    s.postgres.image = 'postgres:latest';
    s.minio.ports = ['9000:9000', '9001:9001'];
    s.billing.ports = ['3003:3003'];
    s['minio-init'].entrypoint = ['/bin/sh', '-c', 'mc anonymous set download local/genhub'];
    expect(composeExposureProblems(exposure(s))).toEqual([
      'postgres: image postgres:latest is not pinned: give it a release tag',
      'redis: image redis is not pinned: give it a release tag',
      'minio: image minio/minio:latest is not pinned: give it a release tag',
      'minio: the storage console (9001) is published on port 9001',
      'minio-init: image minio/mc:edge is not pinned: MinIO images take a RELEASE.<date> tag',
      'minio-init: a canned anonymous policy lets anyone list the bucket: use mc anonymous set-json with objects only',
      'gateway: ${ADMIN_TOKEN} must be required (${ADMIN_TOKEN:?…}), not defaulted to "genhub-dev-admin-token-change-me"',
      'gateway: the message of ${METRICS_TOKEN:?…} must say `openssl rand -hex 32`',
      'gateway: ADMIN_TOKEN is written out; require it from the environment',
      'gateway: API_KEY_PEPPER is written out; require it from the environment',
      'billing: its management port 3003 is published on every interface (bind it to 127.0.0.1)',
      'gateway: NODE_ENV must be production (production mode)',
    ]);
  });

  it('the bucket policy check refuses a listing, a wildcard, a write and the bucket itself', () => {
    const anyone = { Effect: 'Allow', Principal: { AWS: ['*'] } };
    // What `mc anonymous set download` writes.
    expect(
      bucketPolicyProblems({
        Statement: [
          {
            ...anyone,
            Action: ['s3:GetBucketLocation', 's3:ListBucket'],
            Resource: ['arn:aws:s3:::genhub'],
          },
          { ...anyone, Action: ['s3:GetObject'], Resource: ['arn:aws:s3:::genhub/*'] },
        ],
      }),
    ).toEqual([
      'statement 0 grants anonymous s3:ListBucket: anyone could list every file',
      'statement 0 grants anonymous s3:GetBucketLocation: only s3:GetObject is public',
      'statement 0 grants anonymous s3:ListBucket: only s3:GetObject is public',
      'statement 0 grants anonymous access to arn:aws:s3:::genhub: objects only',
    ]);
    expect(
      bucketPolicyProblems({
        Statement: [
          { Effect: 'Allow', Principal: '*', Action: 's3:*', Resource: 'arn:aws:s3:::genhub/*' },
          { ...anyone, Action: ['s3:PutObject'], Resource: ['arn:aws:s3:::genhub/*'] },
          // Not anyone's: a named principal may list.
          {
            Effect: 'Allow',
            Principal: { AWS: ['arn:aws:iam::1:user/ops'] },
            Action: ['s3:ListBucket'],
            Resource: ['arn:aws:s3:::genhub'],
          },
        ],
      }),
    ).toEqual([
      'statement 0 grants anonymous s3:ListBucket: anyone could list every file',
      'statement 0 grants anonymous s3:*: only s3:GetObject is public',
      'statement 1 grants anonymous s3:PutObject: only s3:GetObject is public',
    ]);
  });
});

describe('the secrets of docker/.env', () => {
  const lines = (file: string) =>
    readFileSync(join(workspaceRoot, file), 'utf8')
      .split('\n')
      .map((l) => l.trim());

  it('never enter git or the image build context', () => {
    expect(lines('.gitignore')).toEqual(expect.arrayContaining(['.env', '.env.*']));
    expect(lines('.dockerignore')).toEqual(expect.arrayContaining(['**/.env', '**/.env.*']));
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
    // Production mode (decision 0127): the image refuses published secrets and the simulator.
    expect(runtime).toMatch(/^ENV NODE_ENV=production /m);
    expect(runtime).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(runtime).toMatch(/^EXPOSE \$\{PORT\}$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n.*\/health/m);
    expect(runtime).toContain('CMD ["node", "--enable-source-maps", "main.js"]');
    expect(runtime).not.toMatch(/COPY --from=build \/repo\/node_modules/);
  });
});
