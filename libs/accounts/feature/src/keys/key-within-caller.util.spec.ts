import type { ApiKeyLimits } from '@genhub/accounts-data-access';
import { AppException } from '@genhub/errors';
import { assertWithinCaller, widerThanCaller } from './key-within-caller.util';

const none: ApiKeyLimits = { allowedModels: null, scopes: null, expiresAt: null, spendLimit: null };
const limits = (l: Partial<ApiKeyLimits>): ApiKeyLimits => ({ ...none, ...l });
const day = new Date('2030-01-01T00:00:00Z');
const later = new Date('2030-06-01T00:00:00Z');

describe('a key is never wider than the key that makes it', () => {
  it('lets an unlimited caller make any key', () => {
    expect(widerThanCaller(none, none)).toBeNull();
    expect(
      widerThanCaller(
        none,
        limits({
          allowedModels: ['*'],
          scopes: ['tasks:read'],
          expiresAt: day,
          spendLimit: { amountUnits: 1, period: 'total' },
        }),
      ),
    ).toBeNull();
  });

  it('keeps scopes within the caller’s (absent on the new key: all of them)', () => {
    const caller = limits({ scopes: ['tasks:read', 'keys:manage'] });
    expect(widerThanCaller(caller, limits({ scopes: ['tasks:read'] }))).toBeNull();
    expect(widerThanCaller(caller, limits({ scopes: ['tasks:write'] }))).toMatch(
      /scopes tasks:write/,
    );
    expect(widerThanCaller(caller, none)).toMatch(/tasks:write, billing:read, files:write/);
  });

  it('keeps model patterns within the caller’s: a * only under a * of the caller', () => {
    const caller = limits({ allowedModels: ['local/*', 'openai/gpt-image-1/edit'] });
    const ok = (patterns: string[]) => widerThanCaller(caller, limits({ allowedModels: patterns }));
    expect(ok(['local/*'])).toBeNull();
    expect(ok(['local/simulator/*', 'local/chat'])).toBeNull();
    expect(ok(['openai/gpt-image-1/edit'])).toBeNull();
    expect(ok([])).toBeNull();
    expect(ok(['openai/gpt-image-1/*'])).toMatch(/openai\/gpt-image-1\/\*/);
    expect(ok(['*'])).toMatch(/outside/);
    expect(ok(['loc*'])).toMatch(/outside/);
    expect(widerThanCaller(caller, none)).toMatch(/allowed_models must be within/);
  });

  it('needs a spend limit of the caller’s period and at most its amount', () => {
    const caller = limits({ spendLimit: { amountUnits: 5_000_000, period: 'day' } });
    const withLimit = (amountUnits: number, period: 'day' | 'month' | 'total') =>
      widerThanCaller(caller, limits({ spendLimit: { amountUnits, period } }));
    expect(withLimit(5_000_000, 'day')).toBeNull();
    expect(withLimit(1, 'day')).toBeNull();
    expect(withLimit(5_000_001, 'day')).toMatch(/per day and at most 5/);
    expect(withLimit(1, 'month')).toMatch(/spend_limit/);
    expect(widerThanCaller(caller, none)).toMatch(/spend_limit/);
  });

  it('needs an expiry no later than the caller’s', () => {
    const caller = limits({ expiresAt: later });
    expect(widerThanCaller(caller, limits({ expiresAt: day }))).toBeNull();
    expect(widerThanCaller(caller, limits({ expiresAt: later }))).toBeNull();
    expect(widerThanCaller(caller, limits({ expiresAt: new Date(later.getTime() + 1) }))).toMatch(
      /expires_at/,
    );
    expect(widerThanCaller(caller, none)).toMatch(/expires_at/);
  });

  it('refuses with 403 key_wider_than_caller naming the setting', () => {
    expect(() => assertWithinCaller(limits({ scopes: ['keys:manage'] }), none)).toThrow(
      expect.objectContaining({
        code: 'key_wider_than_caller',
        message: expect.stringMatching(
          /^A key cannot create or widen a key beyond its own limits: the scopes/,
        ),
      }) as AppException,
    );
  });
});
