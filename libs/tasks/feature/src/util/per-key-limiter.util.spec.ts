import { PerKeyLimiter } from './per-key-limiter.util';

/** A call that stays running until `finish` (or `fail`) is called. */
function controllable() {
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { done, finish, fail };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('PerKeyLimiter', () => {
  it('runs at most perKey calls of one key at once, the rest in arrival order', async () => {
    const limiter = new PerKeyLimiter(2);
    const calls = [controllable(), controllable(), controllable(), controllable()];
    const started: number[] = [];
    const results = calls.map((c, i) =>
      limiter.run('a', async () => {
        started.push(i);
        await c.done;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    calls[1].finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    calls[0].finish();
    calls[2].finish();
    calls[3].finish();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(limiter.size).toBe(0);
  });

  it('does not hold one key back for another', async () => {
    const limiter = new PerKeyLimiter(1);
    const busy = controllable();
    void limiter.run('a', () => busy.done);
    let ranB = false;
    await limiter.run('b', async () => {
      ranB = true;
    });
    expect(ranB).toBe(true);
    expect(limiter.size).toBe(1);
    busy.finish();
  });

  it('frees the slot of a call that fails, and passes the failure on', async () => {
    const limiter = new PerKeyLimiter(1);
    const first = controllable();
    const failed = limiter.run('a', () => first.done);
    const next = limiter.run('a', async () => 'next');
    first.fail(new Error('boom'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    expect(limiter.size).toBe(0);
  });
});
