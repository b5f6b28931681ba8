import {
  DatabaseConfig,
  HttpConfig,
  ProvidersConfig,
  TaskConfig,
  UploadQuotaConfig,
  WebhookConfig,
} from './pieces.config';
import { RedisConfig } from './redis.config';
import { ConfigError, loadConfig } from './load-config.util';

describe('loadConfig', () => {
  it('ProvidersConfig: optional file, and the environment for the keys the file names', () => {
    expect(loadConfig(ProvidersConfig, {}).PROVIDERS_FILE).toBeUndefined();
    const config = loadConfig(ProvidersConfig, { PROVIDERS_FILE: 'p.json', OPENAI_API_KEY: 'sk' });
    expect(config.PROVIDERS_FILE).toBe('p.json');
    expect(config.environment.OPENAI_API_KEY).toBe('sk');
    expect(Object.isFrozen(config.environment)).toBe(true);
    expect(Object.keys(config)).not.toContain('environment');
  });

  it('parses typed values and applies class defaults', () => {
    const tasks = loadConfig(TaskConfig, { TASK_CONCURRENCY: '7', CONTENT_BLOCKLIST: 'foo, bar' });
    expect(tasks.TASK_CONCURRENCY).toBe(7);
    expect(tasks.SYNC_TIMEOUT_MS).toBe(600_000);
    expect(tasks.CONTENT_BLOCKLIST).toEqual(['foo', 'bar']);
    expect(tasks.ENABLE_SIMULATOR).toBe(true);
    expect(tasks.ENABLE_LOCAL_MODELS).toBe(true);
    expect(loadConfig(TaskConfig, { ENABLE_LOCAL_MODELS: 'false' }).ENABLE_LOCAL_MODELS).toBe(
      false,
    );
  });

  it('names the variable and the bad value in one line', () => {
    expect(() => loadConfig(HttpConfig, { PORT: 'abc' })).toThrow(
      new ConfigError('PORT', 'must be an integer from 1 to 65535 (got "abc")'),
    );
    const error = (() => {
      try {
        loadConfig(HttpConfig, { PORT: 'abc' });
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error?.message).not.toContain('\n');
  });

  it('reports a missing required variable without printing secrets', () => {
    expect(() => loadConfig(DatabaseConfig, {})).toThrow(/DATABASE_URL .*\(not set\)/);
    expect(() => loadConfig(DatabaseConfig, { DATABASE_URL: 'mysql://secret@host' })).toThrow(
      /^Invalid configuration: DATABASE_URL must be a postgres:\/\/ connection string$/,
    );
  });

  it('uses per-app defaults below the environment', () => {
    expect(loadConfig(HttpConfig, {}, { PORT: '3002' }).PORT).toBe(3002);
    expect(loadConfig(HttpConfig, { PORT: '4000' }, { PORT: '3002' }).PORT).toBe(4000);
  });

  it('parses the webhook retry delays list', () => {
    expect(
      loadConfig(WebhookConfig, { WEBHOOK_RETRY_DELAYS_MS: '0,100,200' }).WEBHOOK_RETRY_DELAYS_MS,
    ).toEqual([0, 100, 200]);
    expect(() => loadConfig(WebhookConfig, { WEBHOOK_RETRY_DELAYS_MS: '0,x' })).toThrow(
      /WEBHOOK_RETRY_DELAYS_MS/,
    );
  });

  it('upload quotas: 10 GB and 10,000 a day by default, 0 for none, whole numbers only', () => {
    expect({ ...loadConfig(UploadQuotaConfig, {}) }).toEqual({
      UPLOAD_QUOTA_BYTES: 10 * 1024 ** 3,
      UPLOAD_QUOTA_PER_DAY: 10_000,
    });
    expect({
      ...loadConfig(UploadQuotaConfig, { UPLOAD_QUOTA_BYTES: '0', UPLOAD_QUOTA_PER_DAY: '0' }),
    }).toEqual({ UPLOAD_QUOTA_BYTES: 0, UPLOAD_QUOTA_PER_DAY: 0 });
    expect(() => loadConfig(UploadQuotaConfig, { UPLOAD_QUOTA_BYTES: '10GB' })).toThrow(
      new ConfigError(
        'UPLOAD_QUOTA_BYTES',
        'must be a whole number of bytes, 0 for no quota (got "10GB")',
      ),
    );
    expect(() => loadConfig(UploadQuotaConfig, { UPLOAD_QUOTA_PER_DAY: '-1' })).toThrow(
      /UPLOAD_QUOTA_PER_DAY/,
    );
  });

  it('accepts a Redis Cluster hash tag as the queue prefix, and nothing else in braces', () => {
    expect(loadConfig(RedisConfig, { QUEUE_PREFIX: '{genhub}' }).QUEUE_PREFIX).toBe('{genhub}');
    expect(loadConfig(RedisConfig, { QUEUE_PREFIX: 'genhub-2' }).QUEUE_PREFIX).toBe('genhub-2');
    for (const bad of ['{genhub', 'gen{hub}', '{}', 'a:b'])
      expect(() => loadConfig(RedisConfig, { QUEUE_PREFIX: bad })).toThrow(/QUEUE_PREFIX/);
  });
});
