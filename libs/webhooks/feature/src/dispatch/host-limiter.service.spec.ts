import { sleep } from '@genhub/testing';
import { DEFAULT_HOST_WAIT, HostLimiter, hostWaitFor } from './host-limiter.service';

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

  describe('acquire (waiting briefly for a host that is turning its slots over)', () => {
    // maxWaitMs is far from recentReleaseMs so a loaded machine's timer lag
    // cannot make one look like the other.
    const policy = { recentReleaseMs: 100, maxWaitMs: 2000, waitersPerSlot: 1 };

    it('gives up as soon as the host stands still, and then puts jobs back at once', async () => {
      const limiter = new HostLimiter(1, policy);
      const hanging = limiter.tryAcquire('h:1'); // taken just now: the host looks busy
      const t0 = Date.now();
      expect(await limiter.acquire('h:1')).toBeUndefined();
      const waited = Date.now() - t0;
      expect(waited).toBeGreaterThanOrEqual(90); // recentReleaseMs, not maxWaitMs
      expect(waited).toBeLessThan(1000);
      const t1 = Date.now();
      expect(await limiter.acquire('h:1')).toBeUndefined(); // still for 100 ms: no wait
      expect(Date.now() - t1).toBeLessThan(90); // a wait would take recentReleaseMs
      hanging?.();
    });

    it('hands a freed slot to the waiting job; a full wait line puts the job back', async () => {
      const limiter = new HostLimiter(1, policy);
      const first = limiter.tryAcquire('fast:1');
      const waiting = limiter.acquire('fast:1');
      // The wait line holds waitersPerSlot × perHost = 1 job; the next is put back.
      expect(await limiter.acquire('fast:1')).toBeUndefined();
      await sleep(50);
      first?.();
      const second = await waiting;
      expect(second).toBeDefined();
      expect(limiter.inFlightFor('fast:1')).toBe(1);
      second?.();
      expect(limiter.inFlightFor('fast:1')).toBe(0);
    });
  });

  describe('hostWaitFor', () => {
    it('lets a host that turns its slots over have the whole dispatcher waiting', () => {
      expect(hostWaitFor(200, 10).waitersPerSlot).toBe(20);
      expect(hostWaitFor(200, 10).maxWaitMs).toBe(DEFAULT_HOST_WAIT.maxWaitMs);
      // Never shorter than the default line.
      expect(hostWaitFor(20, 10).waitersPerSlot).toBe(DEFAULT_HOST_WAIT.waitersPerSlot);
    });
  });
});
