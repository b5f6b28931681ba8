import { HostLimiter } from './host-limiter';

describe('HostLimiter', () => {
  it('admits up to the limit per host, answers at once when full, and frees on release', () => {
    const limiter = new HostLimiter(2);
    const a1 = limiter.tryAcquire('a:1');
    const a2 = limiter.tryAcquire('a:1');
    expect(a1 && a2).toBeTruthy();
    expect(limiter.tryAcquire('a:1')).toBeUndefined();
    // Another host is unaffected.
    expect(limiter.tryAcquire('b:1')).toBeDefined();
    a1?.();
    a1?.(); // a second release of the same slot changes nothing
    expect(limiter.inFlightFor('a:1')).toBe(1);
    expect(limiter.tryAcquire('a:1')).toBeDefined();
    expect(limiter.tryAcquire('a:1')).toBeUndefined();
  });
});
