import { formatAmount, fromMicros, toMicros } from './money.util';

describe('money', () => {
  it('converts without floating-point drift', () => {
    expect(toMicros(0.001)).toBe(1000);
    expect(toMicros(10)).toBe(10_000_000);
    expect(toMicros(0.1 + 0.2)).toBe(300_000);
    expect(fromMicros(1000)).toBe(0.001);
  });

  it('refuses amounts it cannot hold exactly', () => {
    expect(() => toMicros(0.0000001)).toThrow(/6 decimals/);
    expect(() => toMicros(Number.NaN)).toThrow(/finite/);
    expect(() => toMicros(1e12)).toThrow(/too large/);
  });

  it('formats three decimals', () => {
    expect(formatAmount(1000)).toBe('0.001');
    expect(formatAmount(0)).toBe('0.000');
    expect(formatAmount(12_345_678)).toBe('12.346');
    expect(formatAmount(-2500)).toBe('-0.003');
  });
});
