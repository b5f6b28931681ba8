import { afterFailedAttempt, firstDelayLeft, outcomeOf } from './retry-policy.util';

describe('afterFailedAttempt', () => {
  const delays = [0, 2000, 4000];
  it('schedules attempt 2 after 2 s, attempt 3 after 4 s, then gives up', () => {
    expect(afterFailedAttempt(1, delays)).toEqual({ retry: true, nextAttempt: 2, delayMs: 2000 });
    expect(afterFailedAttempt(2, delays)).toEqual({ retry: true, nextAttempt: 3, delayMs: 4000 });
    expect(afterFailedAttempt(3, delays)).toEqual({ retry: false });
  });
  it('makes a single attempt when one delay is configured', () => {
    expect(afterFailedAttempt(1, [0])).toEqual({ retry: false });
  });
  it('gives a replayed round starting at attempt 4 the same delays, numbered on', () => {
    expect(afterFailedAttempt(4, delays, 4)).toEqual({
      retry: true,
      nextAttempt: 5,
      delayMs: 2000,
    });
    expect(afterFailedAttempt(5, delays, 4)).toEqual({
      retry: true,
      nextAttempt: 6,
      delayMs: 4000,
    });
    expect(afterFailedAttempt(6, delays, 4)).toEqual({ retry: false });
  });
});

describe('outcomeOf', () => {
  const delays = [0, 2000, 4000];
  it('delivered on a 2xx, failed with its retry while attempts remain, abandoned after the last', () => {
    expect(outcomeOf(true, 1, delays)).toEqual({ outcome: 'delivered', retry: { retry: false } });
    expect(outcomeOf(false, 1, delays)).toEqual({
      outcome: 'failed',
      retry: { retry: true, nextAttempt: 2, delayMs: 2000 },
    });
    expect(outcomeOf(false, 3, delays)).toEqual({ outcome: 'abandoned', retry: { retry: false } });
    // A replay's round counts from its first attempt.
    expect(outcomeOf(false, 4, delays, 4).outcome).toBe('failed');
  });
});

describe('firstDelayLeft', () => {
  it('holds back only a round’s first attempt, until the first delay has passed', () => {
    const now = Date.now();
    expect(firstDelayLeft(1, 1, [0, 2000], now)).toBe(0);
    expect(firstDelayLeft(1, 1, [500, 2000], now)).toBeGreaterThan(400);
    expect(firstDelayLeft(1, 1, [500, 2000], now - 600)).toBe(0);
    expect(firstDelayLeft(2, 1, [500, 2000], now)).toBe(0);
    expect(firstDelayLeft(4, 4, [500, 2000], now)).toBeGreaterThan(400);
  });
});
