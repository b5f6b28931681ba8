import { API_KEY_SCOPES } from '@genhub/contracts';
import {
  EMPTY_KEY_FORM,
  formOfKey,
  formProblem,
  keyChoiceText,
  limitReached,
  localInputOf,
  modelLines,
  modelsText,
  scopesText,
  settingsOfForm,
  spendText,
} from './key-settings.util';

/** The keys page's form and list, as text and settings (no browser). */
describe('key settings in the console', () => {
  const form = (change: Partial<typeof EMPTY_KEY_FORM>) => ({ ...EMPTY_KEY_FORM, ...change });

  it('leaves out of a new key what the form leaves empty: every model, no limit, no expiry, every scope', () => {
    expect(settingsOfForm(EMPTY_KEY_FORM, 'create')).toEqual({});
    expect(formProblem(EMPTY_KEY_FORM)).toBeUndefined();
  });

  it('sends each setting the form gives, patterns one a line and scopes in the catalogue’s order', () => {
    const settings = settingsOfForm(
      form({
        name: '  batch job ',
        models: 'local/*\n\n  openai/gpt-image-1/* \r\n',
        limitAmount: '0.002',
        limitPeriod: 'day',
        expiresAt: '2030-01-02T03:04',
        scopes: ['billing:read', 'tasks:write'],
      }),
      'create',
    );
    expect(settings).toEqual({
      name: 'batch job',
      allowed_models: ['local/*', 'openai/gpt-image-1/*'],
      spend_limit: { amount: 0.002, period: 'day' },
      expires_at: new Date('2030-01-02T03:04').toISOString(),
      scopes: ['tasks:write', 'billing:read'],
    });
  });

  it('sends every setting of an edit, null where the form is empty (cleared)', () => {
    expect(settingsOfForm(EMPTY_KEY_FORM, 'update')).toEqual({
      name: null,
      allowed_models: null,
      spend_limit: null,
      expires_at: null,
      scopes: null,
    });
  });

  it('fills the edit form from a key, and gives back the same settings', () => {
    const key = {
      name: 'contractor',
      allowed_models: ['local/*'],
      spend_limit: { amount: 5, period: 'month' as const },
      expires_at: '2030-06-30T22:00:00.000Z',
      scopes: ['tasks:read' as const],
    };
    const filled = formOfKey(key);
    expect(filled).toEqual({
      name: 'contractor',
      models: 'local/*',
      limitAmount: '5',
      limitPeriod: 'month',
      expiresAt: localInputOf(key.expires_at),
      scopes: ['tasks:read'],
    });
    expect(settingsOfForm(filled, 'update')).toEqual(key);
    expect(formOfKey({ ...key, name: null, scopes: null }).scopes).toEqual([...API_KEY_SCOPES]);
  });

  it('shows an instant as the browser’s datetime-local value, to the minute', () => {
    const value = localInputOf('2030-06-30T22:05:59.000Z');
    expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(new Date(value).toISOString()).toBe('2030-06-30T22:05:00.000Z');
  });

  it('refuses before any request what the API would refuse: a bad pattern, an amount ≤ 0, no scope', () => {
    expect(formProblem(form({ models: 'local/*\nnot a pattern' }))).toBe(
      '"not a pattern" is not a model pattern: use slugs such as local/* or openai/gpt-image-1/*.',
    );
    expect(formProblem(form({ limitAmount: '0' }))).toBe(
      'The spend limit must be an amount above 0.',
    );
    expect(formProblem(form({ limitAmount: '-1' }))).toBe(
      'The spend limit must be an amount above 0.',
    );
    expect(formProblem(form({ scopes: [] }))).toBe('Choose at least one scope.');
    expect(modelLines(' a/b \n\n*')).toEqual(['a/b', '*']);
  });

  it('says what a key spent against its limit, and when it has no room left', () => {
    const day = { amount: 0.002, period: 'day' as const };
    expect(spendText(0.001, day, 'USD')).toBe('0.001 of 0.002 USD today (UTC)');
    expect(spendText(0, { amount: 5, period: 'month' }, 'CNY')).toBe('0 of 5 CNY this month (UTC)');
    expect(spendText(1.5, { amount: 5, period: 'total' }, '')).toBe('1.5 of 5 in total');
    expect(spendText(0.3, null, 'USD')).toBe('0.3 USD since issued (no limit)');
    expect([0.001, 0.002, 0.003].map((spent) => limitReached(spent, day))).toEqual([
      false,
      true,
      true,
    ]);
    expect(limitReached(100, null)).toBe(false);
  });

  it('says a key’s models, scopes and name in a few words', () => {
    expect(modelsText(null)).toBe('every model');
    expect(modelsText(['local/*', 'openai/*'])).toBe('local/*, openai/*');
    expect(scopesText(null)).toBe('every scope');
    expect(scopesText(['tasks:read', 'billing:read'])).toBe('tasks:read, billing:read');
    expect(keyChoiceText({ name: 'batch', prefix: 'gh_1a2b', status: 'active' })).toBe(
      'batch (gh_1a2b…)',
    );
    expect(keyChoiceText({ name: null, prefix: 'gh_9f', status: 'revoked' })).toBe(
      'unnamed (gh_9f…), revoked',
    );
  });
});
