import { ConfigError, loadConfig } from './load-config.util';
import {
  AdminConfig,
  MetricsConfig,
  PepperConfig,
  StorageConfig,
  TaskConfig,
} from './pieces.config';
import { isKnownSecret } from './production-mode.util';

/** What `openssl rand -hex 32` prints: 64 hex characters. */
const generated = (seed: string) => seed.repeat(64).slice(0, 64);
const PEPPER = generated('0f3a9c51e7b2d846');
const ADMIN = generated('a1b2c3d4e5f60718');
const METRICS = generated('9e8d7c6b5a493827');
const S3_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz3kq9Lp2T';

const PRODUCTION = { NODE_ENV: 'production' };

/** The one line a refused start prints (after `<service>: `), or undefined. */
function refusal(piece: new () => object, env: Record<string, string | undefined>) {
  try {
    loadConfig(piece, env);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    expect(error.message).not.toContain('\n');
    return error.message;
  }
}

const HINT = 'generate one with `openssl rand -hex 32`';

describe('production mode (NODE_ENV=production)', () => {
  describe('ADMIN_TOKEN', () => {
    it.each([
      ['unset', undefined, `is required in production (NODE_ENV=production): ${HINT} (not set)`],
      [
        'the old Secret example',
        'CHANGE-ME-at-least-16-characters',
        `is a published example or placeholder, refused in production (NODE_ENV=production): ${HINT}`,
      ],
      [
        'the old compose default',
        'genhub-dev-admin-token-change-me',
        `is a published example or placeholder, refused in production (NODE_ENV=production): ${HINT}`,
      ],
      [
        'a placeholder',
        'please-replace-with-a-real-admin-token',
        `is a published example or placeholder, refused in production (NODE_ENV=production): ${HINT}`,
      ],
      [
        'one character repeated',
        'x'.repeat(40),
        `is a published example or placeholder, refused in production (NODE_ENV=production): ${HINT}`,
      ],
      [
        'shorter than 32 characters',
        '7f3k2m9q1w8e4r6t5y0u',
        `must be at least 32 characters in production (NODE_ENV=production): ${HINT}`,
      ],
      [
        'the pepper again',
        PEPPER,
        `must differ from API_KEY_PEPPER in production (NODE_ENV=production): one secret per purpose; ${HINT}`,
      ],
    ])('%s: refused in one line naming it, the value never shown', (_, value, reason) => {
      const line = refusal(AdminConfig, {
        ...PRODUCTION,
        API_KEY_PEPPER: PEPPER,
        ADMIN_TOKEN: value,
      });
      expect(line).toBe(`Invalid configuration: ADMIN_TOKEN ${reason}`);
      if (value) expect(line).not.toContain(value);
    });

    it('a generated token passes; outside production the same weak values still start', () => {
      expect(refusal(AdminConfig, { ...PRODUCTION, ADMIN_TOKEN: ADMIN })).toBeUndefined();
      for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
        expect(refusal(AdminConfig, env)).toBeUndefined();
        expect(
          refusal(AdminConfig, { ...env, ADMIN_TOKEN: 'CHANGE-ME-at-least-16-characters' }),
        ).toBeUndefined();
      }
    });
  });

  describe('API_KEY_PEPPER', () => {
    it('has no default: unset is refused in every mode', () => {
      for (const env of [{}, PRODUCTION])
        expect(refusal(PepperConfig, env)).toBe(
          `Invalid configuration: API_KEY_PEPPER is required (no default): ${HINT} (not set)`,
        );
      expect(
        loadConfig(PepperConfig, { API_KEY_PEPPER: 'a-development-pepper' }).API_KEY_PEPPER,
      ).toBe('a-development-pepper');
    });

    it.each([
      ['the old default', 'genhub-default-pepper-change-me', 'is a published example'],
      ['the old compose default', 'genhub-dev-pepper-change-me', 'is a published example'],
      ['the old Secret example', 'CHANGE-ME-at-least-16-characters', 'is a published example'],
      ['the fault injection pepper', 'fault-injection-pepper-0123456789', 'is a published example'],
      ['a short one', '0123456789abcdef0123', 'must be at least 32 characters'],
    ])('%s: refused in production', (_, value, reason) => {
      expect(refusal(PepperConfig, { ...PRODUCTION, API_KEY_PEPPER: value })).toMatch(
        new RegExp(`^Invalid configuration: API_KEY_PEPPER ${reason} .*openssl rand -hex 32`),
      );
      expect(refusal(PepperConfig, { API_KEY_PEPPER: value })).toBeUndefined();
    });

    it('a generated pepper passes', () => {
      expect(refusal(PepperConfig, { ...PRODUCTION, API_KEY_PEPPER: PEPPER })).toBeUndefined();
    });
  });

  describe('S3_SECRET_ACCESS_KEY', () => {
    const S3 = {
      ...PRODUCTION,
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'genhub',
      S3_ACCESS_KEY_ID: 'genhub',
    };

    it.each([
      [
        'unset while S3_ACCESS_KEY_ID is set',
        undefined,
        /^is required in production .*\(not set\)$/,
      ],
      ['the old compose default', 'genhub-dev-minio-secret', /^is a published example/],
      ["MinIO's default", 'minioadmin', /^is a published example/],
      ['a placeholder', 'CHANGE-ME', /^is a published example/],
      ['a short one', 'k29dj3mz81qp', /^must be at least 24 characters in production/],
    ])('%s: refused in production', (_, value, reason) => {
      const line = refusal(StorageConfig, { ...S3, S3_SECRET_ACCESS_KEY: value });
      expect(line).toMatch(/^Invalid configuration: S3_SECRET_ACCESS_KEY /);
      expect(line?.slice('Invalid configuration: S3_SECRET_ACCESS_KEY '.length)).toMatch(reason);
      expect(line).toContain('storage provider');
    });

    it('a provider key passes; no keys (workload identity) and local storage need none', () => {
      expect(refusal(StorageConfig, { ...S3, S3_SECRET_ACCESS_KEY: S3_SECRET })).toBeUndefined();
      const { S3_ACCESS_KEY_ID: _, ...identity } = S3;
      expect(refusal(StorageConfig, identity)).toBeUndefined();
      expect(refusal(StorageConfig, PRODUCTION)).toBeUndefined();
      expect(
        refusal(StorageConfig, { ...S3, NODE_ENV: undefined, S3_SECRET_ACCESS_KEY: 'minioadmin' }),
      ).toBeUndefined();
    });
  });

  describe('ENABLE_SIMULATOR', () => {
    it('is off by default in production, on by default elsewhere', () => {
      expect(loadConfig(TaskConfig, PRODUCTION).ENABLE_SIMULATOR).toBe(false);
      expect(loadConfig(TaskConfig, {}).ENABLE_SIMULATOR).toBe(true);
      expect(loadConfig(TaskConfig, { NODE_ENV: 'test' }).ENABLE_SIMULATOR).toBe(true);
    });

    it('enabled in production: refused in one line', () => {
      for (const value of ['true', '1'])
        expect(refusal(TaskConfig, { ...PRODUCTION, ENABLE_SIMULATOR: value })).toBe(
          'Invalid configuration: ENABLE_SIMULATOR must be false in production (NODE_ENV=production): the simulator lets any account hold worker slots and choose refunded failures (got "true")',
        );
      expect(refusal(TaskConfig, { ...PRODUCTION, ENABLE_SIMULATOR: 'false' })).toBeUndefined();
      expect(refusal(TaskConfig, { ENABLE_SIMULATOR: 'true' })).toBeUndefined();
    });
  });

  describe('METRICS_TOKEN', () => {
    it('is optional outside production, required in it', () => {
      expect(refusal(MetricsConfig, {})).toBeUndefined();
      expect(refusal(MetricsConfig, PRODUCTION)).toBe(
        `Invalid configuration: METRICS_TOKEN is required in production (NODE_ENV=production): ${HINT} (not set)`,
      );
      expect(refusal(MetricsConfig, { ...PRODUCTION, METRICS_TOKEN: METRICS })).toBeUndefined();
    });

    it.each([
      ['a placeholder', 'CHANGE-ME-prometheus-bearer-token', /is a published example/],
      ['a short one', 'a8d7f6e5c4b3a291', /must be at least 32 characters/],
      ['the admin token again', ADMIN, /must differ from ADMIN_TOKEN/],
      ['the pepper again', PEPPER, /must differ from API_KEY_PEPPER/],
    ])('%s: refused in production', (_, value, reason) => {
      const line = refusal(MetricsConfig, {
        ...PRODUCTION,
        ADMIN_TOKEN: ADMIN,
        API_KEY_PEPPER: PEPPER,
        METRICS_TOKEN: value,
      });
      expect(line).toMatch(/^Invalid configuration: METRICS_TOKEN /);
      expect(line).toMatch(reason);
      expect(line).not.toContain(value);
    });
  });

  it('production mode is NODE_ENV=production exactly', () => {
    for (const NODE_ENV of ['Production', 'prod', 'staging', ''])
      expect(refusal(AdminConfig, { NODE_ENV })).toBeUndefined();
  });
});

describe('isKnownSecret', () => {
  it('knows the values shipped in this repository and obvious placeholders', () => {
    for (const value of [
      'genhub-default-pepper-change-me',
      'GENHUB-DEV-MINIO-SECRET',
      'changeme',
      'your-secret-here-0123456789',
      'an-example-value-for-the-docs',
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      'abababababababababababababababab',
    ])
      expect([value, isKnownSecret(value)]).toEqual([value, true]);
  });

  it('accepts generated values', () => {
    for (const value of [PEPPER, ADMIN, METRICS, S3_SECRET, 'Zq3x9Lm2Vb7Nc4Kd8Fg1Hj6Ps5Rt0Wy'])
      expect([value, isKnownSecret(value)]).toEqual([value, false]);
  });
});
