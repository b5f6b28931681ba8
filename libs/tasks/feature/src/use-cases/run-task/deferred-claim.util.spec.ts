import { DeferredClaim } from './deferred-claim.util';

describe('DeferredClaim', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('claims once, after its delay or when asked first, whichever comes first', async () => {
    const claimTask = jest.fn(async () => 'claimed');
    const late = new DeferredClaim(claimTask, 50, jest.fn());
    expect(late.started).toBe(false);
    await jest.advanceTimersByTimeAsync(49);
    expect(claimTask).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(late.started).toBe(true);
    expect(await late.claim()).toBe('claimed');
    expect(claimTask).toHaveBeenCalledTimes(1);

    const asked = new DeferredClaim(claimTask, 50, jest.fn());
    await Promise.all([asked.claim(), asked.claim()]);
    await jest.advanceTimersByTimeAsync(100);
    expect(claimTask).toHaveBeenCalledTimes(2);
  });

  it('never claims once cancelled (the run ended first)', async () => {
    const claimTask = jest.fn(async () => 'claimed');
    const claim = new DeferredClaim(claimTask, 50, jest.fn());
    claim.cancel();
    await jest.advanceTimersByTimeAsync(100);
    expect(claimTask).not.toHaveBeenCalled();
    expect(claim.started).toBe(false);
  });

  it('tells once when the task is gone, and a failed claim surfaces where it is awaited', async () => {
    const onGone = jest.fn();
    const gone = new DeferredClaim(async () => undefined, 50, onGone);
    await jest.advanceTimersByTimeAsync(50);
    expect(await gone.claim()).toBeUndefined();
    expect(onGone).toHaveBeenCalledTimes(1);

    const failing = new DeferredClaim(
      () => Promise.reject(new Error('connection lost')),
      50,
      jest.fn(),
    );
    await jest.advanceTimersByTimeAsync(50); // no unhandled rejection from the timer's claim
    await expect(failing.claim()).rejects.toThrow('connection lost');
  });
});
