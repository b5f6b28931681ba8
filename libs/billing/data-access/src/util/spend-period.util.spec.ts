import { spendPeriodStart } from './spend-period.util';

describe('spendPeriodStart', () => {
  const now = new Date('2026-03-31T23:59:59.999Z');

  it('starts a day period at UTC midnight', () => {
    expect(spendPeriodStart('day', now).toISOString()).toBe('2026-03-31T00:00:00.000Z');
    expect(spendPeriodStart('day', new Date('2026-04-01T00:00:00.000Z')).toISOString()).toBe(
      '2026-04-01T00:00:00.000Z',
    );
  });

  it('starts a month period on the first, UTC', () => {
    expect(spendPeriodStart('month', now).toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('gives a total limit one period, from the epoch', () => {
    expect(spendPeriodStart('total', now).getTime()).toBe(0);
  });
});
