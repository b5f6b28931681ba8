import type { DataSource, EntityManager } from 'typeorm';
import { GroupCommit, type BatchWork, laneOf } from './group-commit';

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

/**
 * A stand-in data source that records which manager each call ran with:
 * `direct` alone, `tx<n>` inside the n-th transaction; a transaction whose
 * callback throws is reported as rolled back.
 */
function fakeDataSource() {
  const log: string[] = [];
  let transactions = 0;
  const dataSource = {
    manager: 'direct' as unknown as EntityManager,
    transaction: async <T>(fn: (m: EntityManager) => Promise<T>): Promise<T> => {
      const name = `tx${++transactions}`;
      try {
        return await fn(name as unknown as EntityManager);
      } catch (error) {
        log.push(`${name} rolled back`);
        throw error;
      }
    },
  } as unknown as DataSource;
  return { dataSource, log };
}

describe('GroupCommit', () => {
  it('runs a call alone at once, then groups the calls that waited into one transaction, in arrival order', async () => {
    const { dataSource } = fakeDataSource();
    const sizes: number[] = [];
    const batcher = new GroupCommit(dataSource, {
      perLine: 1,
      maxBatch: 10,
      onBatch: (n) => sizes.push(n),
    });
    const first = controllable();
    const ran: string[] = [];
    const record =
      (name: string, wait?: Promise<void>): BatchWork<string> =>
      async (manager) => {
        ran.push(`${name}@${String(manager)}`);
        await wait;
        return name;
      };
    const answers = [
      batcher.run('a', record('0', first.done)),
      batcher.run('a', record('1')),
      batcher.run('a', record('2')),
      batcher.run('a', record('3')),
    ];
    await tick();
    expect(ran).toEqual(['0@direct']);
    first.finish();
    expect(await Promise.all(answers)).toEqual(['0', '1', '2', '3']);
    expect(ran).toEqual(['0@direct', '1@tx1', '2@tx1', '3@tx1']);
    expect(sizes).toEqual([1, 3]);
    await tick(); // the line is dropped once its last batch has ended
    expect(batcher.size).toBe(0);
  });

  it('keeps perLine batches in flight and at most maxBatch calls in each', async () => {
    const { dataSource } = fakeDataSource();
    const sizes: number[] = [];
    const batcher = new GroupCommit(dataSource, {
      perLine: 2,
      maxBatch: 2,
      onBatch: (n) => sizes.push(n),
    });
    const gate = controllable();
    const calls = Array.from({ length: 7 }, (_, i) =>
      batcher.run('a', async () => {
        if (i < 2) await gate.done;
        return i;
      }),
    );
    await tick();
    expect(sizes).toEqual([1, 1]);
    gate.finish();
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(sizes).toEqual([1, 1, 2, 2, 1]);
  });

  it('answers a batch only after its transaction commits', async () => {
    const { dataSource } = fakeDataSource();
    const commit = controllable();
    const real = dataSource.transaction.bind(dataSource);
    (dataSource as { transaction: unknown }).transaction = async <T>(
      fn: (m: EntityManager) => Promise<T>,
    ) => {
      const result = await real(fn);
      await commit.done;
      return result;
    };
    const batcher = new GroupCommit(dataSource, { perLine: 1, maxBatch: 10 });
    const first = controllable();
    void batcher.run('a', () => first.done);
    let answered = false;
    const second = batcher.run('a', async () => 'x').then(() => (answered = true));
    void batcher.run('a', async () => 'y');
    first.finish();
    await tick();
    await tick();
    expect(answered).toBe(false);
    commit.finish();
    await second;
    expect(answered).toBe(true);
  });

  it('runs each call of a failed batch again alone, so one call’s error is not the others’', async () => {
    const { dataSource, log } = fakeDataSource();
    const batcher = new GroupCommit(dataSource, { perLine: 1, maxBatch: 10 });
    const first = controllable();
    const attempts: string[] = [];
    void batcher.run('a', () => first.done);
    const good = batcher.run('a', async (m) => {
      attempts.push(`good@${String(m)}`);
      return 'good';
    });
    const bad = batcher.run('a', async (m) => {
      attempts.push(`bad@${String(m)}`);
      throw new Error('duplicate key');
    });
    const atomic = batcher.run(
      'a',
      async (m) => {
        attempts.push(`atomic@${String(m)}`);
        return 'atomic';
      },
      true,
    );
    first.finish();
    await expect(good).resolves.toBe('good');
    await expect(bad).rejects.toThrow('duplicate key');
    await expect(atomic).resolves.toBe('atomic');
    // The batch (tx1) rolled back; alone, the plain calls run direct, the atomic one in its own transaction.
    expect(log).toEqual(['tx1 rolled back']);
    expect(attempts).toEqual(['good@tx1', 'bad@tx1', 'good@direct', 'bad@direct', 'atomic@tx2']);
    await tick();
    expect(batcher.size).toBe(0);
  });

  it('starts every single-statement call of a batch at once, so the connection runs them back to back', async () => {
    const { dataSource } = fakeDataSource();
    const batcher = new GroupCommit(dataSource, { perLine: 1, maxBatch: 10 });
    const first = controllable();
    void batcher.run('a', () => first.done);
    const started: string[] = [];
    const statements = Array.from({ length: 3 }, () => controllable());
    const answers = statements.map((statement, i) =>
      batcher.run('a', async (m) => {
        started.push(`${i}@${String(m)}`);
        await statement.done;
        return i;
      }),
    );
    first.finish();
    await tick();
    // None has been answered, yet all are started (queued on the connection in arrival order).
    expect(started).toEqual(['0@tx1', '1@tx1', '2@tx1']);
    statements.forEach((s) => s.finish());
    expect(await Promise.all(answers)).toEqual([0, 1, 2]);
  });

  it('runs the calls of a batch holding an atomic call one after another', async () => {
    const { dataSource } = fakeDataSource();
    const batcher = new GroupCommit(dataSource, { perLine: 1, maxBatch: 10 });
    const first = controllable();
    void batcher.run('a', () => first.done);
    const started: number[] = [];
    const gate = controllable();
    const answers = [0, 1].map((i) =>
      batcher.run(
        'a',
        async () => {
          started.push(i);
          if (i === 0) await gate.done;
          return i;
        },
        i === 0,
      ),
    );
    first.finish();
    await tick();
    expect(started).toEqual([0]);
    gate.finish();
    expect(await Promise.all(answers)).toEqual([0, 1]);
    expect(started).toEqual([0, 1]);
  });

  it('does not hold one key back for another', async () => {
    const { dataSource } = fakeDataSource();
    const batcher = new GroupCommit(dataSource, { perLine: 1, maxBatch: 10 });
    const busy = controllable();
    void batcher.run('a', () => busy.done);
    await expect(batcher.run('b', async () => 'b')).resolves.toBe('b');
    await tick();
    expect(batcher.size).toBe(1);
    busy.finish();
  });
  describe('with lanes (accounts sharing lines)', () => {
    /** `count` keys that all land in the same one of `lanes` lines. */
    function keysInOneLane(count: number, lanes: number): string[] {
      const keys: string[] = [];
      for (let i = 0; keys.length < count; i++)
        if (laneOf(`acct-${i}`, lanes) === laneOf('acct-0', lanes)) keys.push(`acct-${i}`);
      return keys;
    }

    it('spreads keys over the lanes, each key always in the same one', () => {
      const lanes = new Set(Array.from({ length: 200 }, (_, i) => laneOf(`acct-${i}`, 4)));
      expect([...lanes].sort()).toEqual(['0', '1', '2', '3']);
      expect(laneOf('acct-7', 4)).toBe(laneOf('acct-7', 4));
    });

    it('groups waiting calls of several accounts in one transaction, ordered by account, each account in arrival order', async () => {
      const { dataSource } = fakeDataSource();
      const sizes: number[] = [];
      const batcher = new GroupCommit(dataSource, {
        perLine: 1,
        lanes: 2,
        maxBatch: 10,
        onBatch: (n) => sizes.push(n),
      });
      const [a, b, c] = keysInOneLane(3, 2).sort();
      const first = controllable();
      const ran: string[] = [];
      const call = (key: string, name: string, wait?: Promise<void>) =>
        batcher.run(key, async (manager) => {
          ran.push(`${name}@${String(manager)}`);
          await wait;
          return name;
        });
      const answers = [
        call(b, 'b0', first.done),
        call(c, 'c1'),
        call(a, 'a1'),
        call(c, 'c2'),
        call(b, 'b1'),
        call(a, 'a2'),
      ];
      await tick();
      expect(ran).toEqual(['b0@direct']);
      first.finish();
      // Each caller gets its own answer, whatever its place in the batch.
      expect(await Promise.all(answers)).toEqual(['b0', 'c1', 'a1', 'c2', 'b1', 'a2']);
      // One global order (by account) for every batch's row locks; arrival order within one account.
      expect(ran).toEqual(['b0@direct', 'a1@tx1', 'a2@tx1', 'b1@tx1', 'c1@tx1', 'c2@tx1']);
      expect(sizes).toEqual([1, 5]);
    });

    describe('from lanesFromInFlight calls in flight on', () => {
      const options = { perLine: 1, lanes: 2, lanesFromInFlight: 2, maxBatch: 10 };

      it('gives each key a line of its own below the threshold and a shared lane from it on', async () => {
        const { dataSource } = fakeDataSource();
        const batcher = new GroupCommit(dataSource, options);
        const [a, b, c, d, e] = keysInOneLane(5, 2);
        const busy = [controllable(), controllable(), controllable()];
        void batcher.run(a, () => busy[0].done);
        void batcher.run(b, () => busy[1].done);
        expect(batcher.size).toBe(2); // a line each
        // Two in flight: c, d and e go to their lane; d and e wait behind c there, together.
        const ran: string[] = [];
        const lane = [c, d, e].map((key, i) =>
          batcher.run(key, async (m) => {
            ran.push(`${key}@${String(m)}`);
            if (i === 0) await busy[2].done;
          }),
        );
        await tick();
        expect(ran).toEqual([`${c}@direct`]);
        expect(batcher.size).toBe(3);
        busy.forEach((x) => x.finish());
        await Promise.all(lane);
        expect(ran).toEqual([`${c}@direct`, ...[d, e].sort().map((k) => `${k}@tx1`)]);
      });

      it('keeps a key on the line its calls are in until they are answered (its order holds)', async () => {
        const { dataSource } = fakeDataSource();
        const batcher = new GroupCommit(dataSource, options);
        const [a, b] = keysInOneLane(2, 2);
        const first = controllable();
        const order: string[] = [];
        const call = (key: string, name: string, wait?: Promise<void>) =>
          batcher.run(key, async () => {
            order.push(name);
            await wait;
          });
        const calls = [call(a, 'a0', first.done), call(b, 'b0'), call(a, 'a1'), call(a, 'a2')];
        await tick();
        // Three in flight, yet a's next calls wait on a's own line behind a0, not in the lane.
        expect(order).toEqual(['a0', 'b0']);
        expect(batcher.size).toBe(1);
        first.finish();
        await Promise.all(calls);
        expect(order).toEqual(['a0', 'b0', 'a1', 'a2']);
        await tick();
        expect(batcher.size).toBe(0);
      });
    });

    it('does not hold one lane back for another', async () => {
      const { dataSource } = fakeDataSource();
      const batcher = new GroupCommit(dataSource, { perLine: 1, lanes: 2, maxBatch: 10 });
      const busy = controllable();
      const other = Array.from({ length: 50 }, (_, i) => `acct-${i}`).find(
        (k) => laneOf(k, 2) !== laneOf('acct-0', 2),
      ) as string;
      void batcher.run('acct-0', () => busy.done);
      await expect(batcher.run(other, async (m) => String(m))).resolves.toBe('direct');
      busy.finish();
    });
  });
});
