import { CoalescingBatch } from './coalescing-batch';

describe('CoalescingBatch', () => {
  /** A run whose batches the test releases one by one. */
  function controlled() {
    const batches: number[][] = [];
    const releases: ((fail?: Error) => void)[] = [];
    const batch = new CoalescingBatch<number, string>(
      (inputs) =>
        new Promise((resolve, reject) => {
          batches.push(inputs);
          releases.push((fail) => (fail ? reject(fail) : resolve(inputs.map((i) => `#${i}`))));
        }),
      3,
    );
    return { batch, batches, release: (fail?: Error) => releases.shift()?.(fail) };
  }

  it('runs a lone call at once, and the calls that arrive meanwhile together next', async () => {
    const { batch, batches, release } = controlled();
    const first = batch.call(1);
    expect(batches).toEqual([[1]]);
    const rest = [batch.call(2), batch.call(3)];
    expect(batches).toEqual([[1]]); // waiting for the batch in flight
    release();
    expect(await first).toBe('#1');
    await Promise.resolve();
    expect(batches).toEqual([[1], [2, 3]]);
    release();
    expect(await Promise.all(rest)).toEqual(['#2', '#3']);
  });

  it('caps a batch at its size, in arrival order', async () => {
    const { batch, batches, release } = controlled();
    const all = [batch.call(0)];
    for (let i = 1; i <= 5; i++) all.push(batch.call(i));
    release();
    await all[0];
    await Promise.resolve();
    release();
    await all[3];
    await Promise.resolve();
    release();
    expect(await Promise.all(all)).toEqual(['#0', '#1', '#2', '#3', '#4', '#5']);
    expect(batches).toEqual([[0], [1, 2, 3], [4, 5]]);
  });

  it('fails every call of a failed batch, and only those', async () => {
    const { batch, release } = controlled();
    const first = batch.call(1);
    const second = batch.call(2);
    release(new Error('database down'));
    await expect(first).rejects.toThrow('database down');
    await Promise.resolve();
    release();
    expect(await second).toBe('#2');
  });
});
