import { AppException } from '@genhub/errors';
import { assertFutureExpiry, keyChangeFromDto, limitsAfter } from './key-settings.util';

const now = new Date('2030-01-01T00:00:00.000Z');

describe('key settings from the wire', () => {
  it('keeps absent absent and null null, in stored units', () => {
    expect(keyChangeFromDto({}, now)).toEqual({});
    expect(
      keyChangeFromDto(
        {
          name: 'batch',
          allowed_models: ['local/*', 'local/*'],
          spend_limit: { amount: 0.25, period: 'month' },
          expires_at: '2030-02-01T00:00:00Z',
          scopes: ['tasks:read'],
        },
        now,
      ),
    ).toEqual({
      name: 'batch',
      allowedModels: ['local/*'],
      spendLimit: { amountUnits: 250_000, period: 'month' },
      expiresAt: new Date('2030-02-01T00:00:00Z'),
      scopes: ['tasks:read'],
    });
    expect(
      keyChangeFromDto(
        { name: null, allowed_models: null, spend_limit: null, expires_at: null, scopes: null },
        now,
      ),
    ).toEqual({ name: null, allowedModels: null, spendLimit: null, expiresAt: null, scopes: null });
  });

  it('refuses an expiry that is not ahead with 400 naming expires_at', () => {
    for (const expires_at of ['2029-12-31T23:59:59Z', '2030-01-01T00:00:00Z'])
      expect(() => keyChangeFromDto({ expires_at }, now)).toThrow(
        expect.objectContaining({
          code: 'invalid_request',
          message: 'Invalid request: expires_at must be in the future',
        }) as AppException,
      );
    expect(() => assertFutureExpiry(new Date(now.getTime() + 1), now)).not.toThrow();
    expect(() => assertFutureExpiry(null, now)).not.toThrow();
  });

  it('applies a change over the current limits (absent kept, null cleared)', () => {
    const current = {
      allowedModels: ['local/*'],
      scopes: null,
      expiresAt: now,
      spendLimit: { amountUnits: 1, period: 'day' as const },
    };
    expect(limitsAfter(current, { scopes: ['tasks:read'], expiresAt: null })).toEqual({
      allowedModels: ['local/*'],
      scopes: ['tasks:read'],
      expiresAt: null,
      spendLimit: { amountUnits: 1, period: 'day' },
    });
  });
});
