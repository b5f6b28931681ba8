import { DatabaseConfig, HttpConfig, TaskConfig, WebhookConfig } from './config.pieces';
import { ConfigError, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('parses typed values and applies class defaults', () => {
    const tasks = loadConfig(TaskConfig, { TASK_CONCURRENCY: '7', CONTENT_BLOCKLIST: 'foo, bar' });
    expect(tasks.TASK_CONCURRENCY).toBe(7);
    expect(tasks.SYNC_TIMEOUT_MS).toBe(600_000);
    expect(tasks.CONTENT_BLOCKLIST).toEqual(['foo', 'bar']);
    expect(tasks.ENABLE_SIMULATOR).toBe(true);
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
});
