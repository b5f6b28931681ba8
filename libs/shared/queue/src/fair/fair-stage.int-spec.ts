import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { FairStage, TakenTask } from './fair-stage';

/** The levels' weights (LEVEL_WEIGHTS in the contracts, restated: a util lib cannot import them). */
const WEIGHTS = { Bronze: 1, Silver: 2, Gold: 4 };
type Level = keyof typeof WEIGHTS;

/** The fair stage on the real Redis, each test on a prefix of its own. */
describe('FairStage (Redis)', () => {
  const url = process.env.REDIS_URL as string;
  const prefixes: string[] = [];
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(url);
  });
  afterAll(async () => {
    // Each prefix's keys (the queue lib cannot use @genhub/testing's cleanup: it depends on it).
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
    }
    redis.disconnect();
  });

  function stage(runningLeaseMs = 60_000): { fair: FairStage; prefix: string } {
    const prefix = `fair-test-${randomUUID().slice(0, 8)}`;
    prefixes.push(prefix);
    return { fair: new FairStage(async () => redis, prefix, { runningLeaseMs }), prefix };
  }
  /** n tasks of one account, named after it (`A0`, `A1`, …), added in order. */
  async function fill(fair: FairStage, account: string, n: number, level: Level = 'Bronze') {
    for (let i = 0; i < n; i++)
      await fair.add({ accountId: account, taskId: `${account}${i}` }, { weight: WEIGHTS[level] });
  }
  /**
   * A subscriber to `channels` under the prefix; `heard(n)` waits briefly for n messages
   * (`channel-without-prefix:message`) and gives what came.
   */
  async function listen(prefix: string, ...channels: string[]) {
    const listener = new Redis(url);
    const messages: string[] = [];
    listener.on('message', (channel: string, message: string) =>
      messages.push(`${channel.slice(prefix.length + 1)}:${message}`),
    );
    await listener.subscribe(...channels.map((channel) => `${prefix}:${channel}`));
    return {
      async heard(n: number) {
        await redis.ping(); // the listener has had time to hear what came before
        for (let i = 0; i < 50 && messages.length < n; i++)
          await new Promise((r) => setTimeout(r, 10));
        return messages;
      },
      close: () => listener.disconnect(),
    };
  }
  const accountsOf = (taken: TakenTask[]) => taken.map((t) => t.accountId).join('');
  const idsOf = (taken: TakenTask[]) => taken.map((t) => t.taskId);

  it('keeps one account’s tasks in submit order, and empties', async () => {
    const { fair } = stage();
    await fill(fair, 'A', 5);
    expect(idsOf(await fair.take(3))).toEqual(['A0', 'A1', 'A2']);
    expect(idsOf(await fair.take(10))).toEqual(['A3', 'A4']);
    expect(await fair.take(10)).toEqual([]);
  });

  it('serves a newcomer next, however long the backlog ahead of it', async () => {
    const { fair } = stage();
    await fill(fair, 'A', 2000);
    expect(accountsOf(await fair.take(3))).toBe('AAA');
    await fair.add(
      { accountId: 'B', taskId: 'quiet', requestId: 'req-1' },
      { weight: WEIGHTS.Bronze },
    );
    const before = Date.now();
    const next = await fair.take(2);
    const quiet = next.find((t) => t.taskId === 'quiet');
    expect(quiet).toEqual({
      accountId: 'B',
      taskId: 'quiet',
      requestId: 'req-1',
      stagedAt: expect.any(Number),
    });
    // When it was added: the queue wait its runner reports.
    expect(quiet?.stagedAt).toBeGreaterThan(before - 5000);
    expect(quiet?.stagedAt).toBeLessThanOrEqual(Date.now());
  });

  it('alternates equal accounts, and grants each level its weight', async () => {
    const { fair: equal } = stage();
    await fill(equal, 'A', 6, 'Silver');
    await fill(equal, 'B', 6, 'Silver');
    expect(accountsOf(await equal.take(6))).toBe('ABABAB');

    const { fair: weighted } = stage();
    await fill(weighted, 'G', 100, 'Gold');
    await fill(weighted, 'b', 100, 'Bronze');
    const first = accountsOf(await weighted.take(50));
    // Gold 4 : Bronze 1 while both wait.
    expect(first.split('').filter((a) => a === 'G')).toHaveLength(40);
  });

  it('gives an account that waited nothing no credit for its idle time', async () => {
    const { fair } = stage();
    await fill(fair, 'A', 100);
    await fair.take(50); // A alone: every slot
    await fill(fair, 'B', 10);
    // B joins at the current time: the two alternate, B does not take ten in a row.
    expect(accountsOf(await fair.take(6))).toMatch(/^(AB|BA){3}$/);
  });

  it('adds a batch in one call, in its order, skipping what already waits', async () => {
    const { fair } = stage();
    await fair.add({ accountId: 'A', taskId: 'A0' }, { weight: 1 });
    const share = { weight: 1 };
    expect(
      await fair.addAll([
        { task: { accountId: 'A', taskId: 'A0' }, share },
        { task: { accountId: 'A', taskId: 'A1' }, share },
        { task: { accountId: 'B', taskId: 'B0' }, share },
      ]),
    ).toBe(false); // the stage was not idle: A0 was ready
    expect(idsOf(await fair.take(5))).toEqual(['A0', 'B0', 'A1']);
  });

  it('ignores a task added twice (a re-sent outbox row)', async () => {
    const { fair } = stage();
    expect(await fair.add({ accountId: 'A', taskId: 'x' }, { weight: WEIGHTS.Bronze })).toBe(true);
    expect(await fair.add({ accountId: 'A', taskId: 'x' }, { weight: WEIGHTS.Bronze })).toBe(false);
    expect(idsOf(await fair.take(5))).toEqual(['x']);
  });

  it('publishes the fair-work notice when it leaves idle, and the ends it was told of when asked', async () => {
    const { fair, prefix } = stage();
    const listener = await listen(prefix, 'fair-work', 'task-terminal');
    try {
      await fill(fair, 'A', 3); // idle → ready once: one notice, not three
      const [first, second] = await fair.take(2);
      await fair.take(0, { finished: [first] }); // not asked: the caller publishes itself
      await fair.take(0, { finished: [second], announceFinished: true });
      expect(await listener.heard(2)).toEqual(['fair-work:', `task-terminal:${second.taskId}`]);
    } finally {
      listener.close();
    }
  });

  it('takes a deleted task out of its line, and its account out when the line empties', async () => {
    const { fair } = stage();
    const [a, b] = [randomUUID(), randomUUID()];
    await fair.add({ accountId: a, taskId: 'x' }, { weight: WEIGHTS.Bronze });
    await fair.add({ accountId: b, taskId: 'y' }, { weight: WEIGHTS.Bronze });
    await fair.add({ accountId: b, taskId: 'z' }, { weight: WEIGHTS.Bronze });
    expect(await fair.remove(a, 'x')).toBe(true);
    expect(await fair.remove(a, 'x')).toBe(false);
    expect(await fair.remove(b, 'y')).toBe(true);
    expect(await fair.take(5)).toEqual([
      { accountId: b, taskId: 'z', stagedAt: expect.any(Number) },
    ]);
    expect(await fair.size()).toEqual({ tasks: 0, accounts: 0 });
  });

  it('holds an account at its cap until one of its runs finishes', async () => {
    const { fair } = stage();
    for (let i = 0; i < 5; i++)
      await fair.add(
        { accountId: 'A', taskId: `A${i}` },
        { weight: WEIGHTS.Bronze, maxConcurrentTasks: 2 },
      );
    await fill(fair, 'B', 5);
    expect(accountsOf(await fair.take(10))).toBe('ABABBBB');
    expect(await fair.take(1)).toEqual([]);
    expect(idsOf(await fair.take(5, { finished: [{ accountId: 'A', taskId: 'A0' }] }))).toEqual([
      'A2',
    ]);
    // A run's end reported with the next take frees its place in the same call.
    expect(idsOf(await fair.take(5, { finished: [{ accountId: 'A', taskId: 'A1' }] }))).toEqual([
      'A3',
    ]);
    // The operator lifts the cap: the rest goes at once.
    await fair.setShare('A', { weight: WEIGHTS.Bronze, maxConcurrentTasks: null });
    expect(idsOf(await fair.take(5))).toEqual(['A4']);
  });

  it('frees a cap whose run never reported its end, after the lease', async () => {
    const { fair } = stage(300);
    for (let i = 0; i < 2; i++)
      await fair.add(
        { accountId: 'A', taskId: `A${i}` },
        { weight: WEIGHTS.Bronze, maxConcurrentTasks: 1 },
      );
    expect(idsOf(await fair.take(5))).toEqual(['A0']);
    expect(await fair.take(5)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Any end reported for the held account re-places it.
    expect(
      idsOf(await fair.take(5, { finished: [{ accountId: 'A', taskId: 'unrelated' }] })),
    ).toEqual(['A1']);
  });

  it('counts the run queue’s waiting jobs against what it takes', async () => {
    const { fair, prefix } = stage();
    const wait = `${prefix}:tasks:wait`;
    await redis.rpush(wait, 'j1', 'j2');
    await fill(fair, 'A', 5);
    expect(idsOf(await fair.take(3, { waitingAhead: wait }))).toEqual(['A0']);
  });

  it('keeps a running task a member until its end: a re-sent add is a no-op, a delete leaves it', async () => {
    const { fair } = stage();
    await fill(fair, 'A', 1);
    const [a0] = await fair.take(1);
    expect(await fair.holds('A0')).toBe(true);
    expect(await fair.add(a0, { weight: WEIGHTS.Bronze })).toBe(false);
    expect(await fair.take(5)).toEqual([]);
    // Running, not waiting: the deletion cancels the run, the stage keeps its lease.
    expect(await fair.remove('A', 'A0')).toBe(false);
    expect(await fair.size()).toEqual({ tasks: 0, accounts: 0 });
    await fair.take(0, { finished: [a0] });
    expect(await fair.holds('A0')).toBe(false);
    // Ended: a late re-sent add stages it again (its run then finds it ended and does nothing).
    expect(await fair.add(a0, { weight: WEIGHTS.Bronze })).toBe(true);
  });

  it('restages a task whose lease was not renewed, at the front of its line, and no other', async () => {
    const { fair } = stage();
    await fill(fair, 'A', 3);
    const taken = await fair.take(2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    // A1's taker is alive and renews; A0's died.
    expect(await fair.renew(['A1', 'never-taken'])).toBe(1);
    const expired = await fair.expired(40, 10, 5);
    expect(expired).toEqual({ restaged: [{ taskId: 'A0', accountId: 'A' }], abandoned: [] });
    // Expired once only: a second reaper right after finds nothing.
    expect(await fair.expired(40, 10, 5)).toEqual({ restaged: [], abandoned: [] });
    expect(await fair.renew(['A0'])).toBe(0);
    expect(idsOf(await fair.take(5, { finished: [taken[1]] }))).toEqual(['A0', 'A2']);
  });

  it('abandons a task whose leases expired more often than allowed', async () => {
    const { fair } = stage();
    await fill(fair, 'A', 1);
    for (let restart = 1; restart <= 2; restart++) {
      expect(idsOf(await fair.take(1))).toEqual(['A0']);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect((await fair.expired(20, 10, 2)).restaged).toHaveLength(1);
    }
    expect(idsOf(await fair.take(1))).toEqual(['A0']);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await fair.expired(20, 10, 2)).toEqual({
      restaged: [],
      abandoned: [{ taskId: 'A0', accountId: 'A' }],
    });
    expect(await fair.holds('A0')).toBe(false);
    expect(await fair.take(5)).toEqual([]);
  });

  it('puts back what a stopping taker took and never started, ahead of the rest', async () => {
    const { fair } = stage();
    await fill(fair, 'A', 4);
    const taken = await fair.take(3);
    await fair.release(taken.slice(1));
    expect(await fair.size()).toEqual({ tasks: 3, accounts: 1 });
    expect(idsOf(await fair.take(5))).toEqual(['A1', 'A2', 'A3']);
  });

  describe('handing tasks to idle takers (decision 0143)', () => {
    const idle = (id: string) => ({ id, idleMs: 60_000 });
    const inbox = (prefix: string, taker: string) =>
      redis.lrange(`${prefix}:fair:inbox:${taker}`, 0, -1);

    it('hands a task added to an empty stage to the idle taker with the most free slots, leased', async () => {
      const { fair, prefix } = stage();
      // Each asked for more than the stage had: registered idle with what it did not get.
      expect(await fair.take(2, { taker: idle('small') })).toEqual([]);
      expect(await fair.take(3, { taker: idle('large') })).toEqual([]);
      const before = Date.now();
      await fair.add({ accountId: 'A', taskId: 'A0', requestId: 'req 1' }, { weight: 1 });
      expect(await inbox(prefix, 'small')).toEqual([]);
      const blocking = await fair.blockingConnection();
      try {
        const handed = await fair.nextHanded('large', blocking, 1);
        expect(handed).toEqual({
          accountId: 'A',
          taskId: 'A0',
          requestId: 'req 1',
          stagedAt: expect.any(Number),
        });
        expect(handed?.stagedAt).toBeGreaterThanOrEqual(before - 1000);
      } finally {
        blocking.disconnect();
      }
      // Leased as a take's: nobody else takes it, it counts as running, its lease is renewed.
      expect(await fair.take(5)).toEqual([]);
      expect(await fair.holds('A0')).toBe(true);
      expect(await fair.renew(['A0'])).toBe(1);
      expect(await fair.size()).toEqual({ tasks: 0, accounts: 0 });
    });

    it('hands a batch up to the free slots, in fair order; the rest wakes the others', async () => {
      const { fair, prefix } = stage();
      await fair.take(2, { taker: idle('w') });
      const listener = await listen(prefix, 'fair-work');
      try {
        await fair.addAll(
          ['A0', 'A1', 'B0'].map((taskId) => ({
            task: { accountId: taskId[0], taskId },
            share: { weight: 1 },
          })),
        );
        expect((await inbox(prefix, 'w')).map((item) => item.split(' ')[1])).toEqual(['A0', 'B0']);
        // Its two slots are spoken for: what is left waits for a take, and the notice says so.
        expect(idsOf(await fair.take(5))).toEqual(['A1']);
        expect(await listener.heard(1)).toEqual(['fair-work:']);
      } finally {
        listener.close();
      }
    });

    it('gives a taker what it was handed and did not pop with its next take, first', async () => {
      const { fair, prefix } = stage();
      await fair.take(3, { taker: idle('w') });
      await fill(fair, 'A', 1);
      await fill(fair, 'B', 1);
      expect(await inbox(prefix, 'w')).toHaveLength(2);
      await fill(fair, 'C', 2); // its slots are spoken for after C0
      expect(idsOf(await fair.take(5, { taker: idle('w') }))).toEqual(['A0', 'B0', 'C0', 'C1']);
      expect(await inbox(prefix, 'w')).toEqual([]);
    });

    it('hands nothing while tasks wait, to a registration that lapsed, or to a taker that got all it asked for', async () => {
      const { fair, prefix } = stage();
      await fair.take(1, { taker: { id: 'lapsed', idleMs: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 20));
      await fill(fair, 'A', 2);
      expect(await inbox(prefix, 'lapsed')).toEqual([]);
      // Got all it asked for: not idle. (A0 is its; A1 waits.)
      expect(idsOf(await fair.take(1, { taker: idle('busy') }))).toEqual(['A0']);
      await fill(fair, 'B', 1);
      expect(await inbox(prefix, 'busy')).toEqual([]);
      // A registration that raced a waiting task (written here as the script writes it) does not
      // let a later add jump the line: the stage was not empty.
      await redis.zadd(`${prefix}:fair:idle`, Date.now() + 60_000, 'raced');
      await redis.hset(`${prefix}:fair:idle-slots`, 'raced', 5);
      await fill(fair, 'C', 1);
      expect(await inbox(prefix, 'raced')).toEqual([]);
      // In fair order: A had its turn (A0), B and C join at the clock.
      expect(idsOf(await fair.take(5))).toEqual(['B0', 'C0', 'A1']);
    });

    it('hands nothing of an account at its cap', async () => {
      const { fair, prefix } = stage();
      const capped = { weight: 1, maxConcurrentTasks: 1 };
      await fair.add({ accountId: 'A', taskId: 'A0' }, capped);
      expect(idsOf(await fair.take(1))).toEqual(['A0']);
      await fair.take(4, { taker: idle('w') });
      await fair.add({ accountId: 'A', taskId: 'A1' }, capped);
      expect(await inbox(prefix, 'w')).toEqual([]);
      // Its run ends: the next take (any taker's) gets it.
      expect(idsOf(await fair.take(4, { finished: [{ accountId: 'A', taskId: 'A0' }] }))).toEqual([
        'A1',
      ]);
    });

    it('restages a task handed to a taker that died, once its lease lapses', async () => {
      const { fair } = stage();
      await fair.take(1, { taker: idle('dead') });
      await fill(fair, 'A', 1);
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(await fair.expired(40, 10, 5)).toEqual({
        restaged: [{ taskId: 'A0', accountId: 'A' }],
        abandoned: [],
      });
      expect(idsOf(await fair.take(1))).toEqual(['A0']);
    });
  });

  it('tells each waiting task’s fair position', async () => {
    const { fair, prefix } = stage();
    await fill(fair, 'A', 1000);
    await fill(fair, 'B', 3);
    await fill(fair, 'C', 2, 'Silver');
    const wait = `${prefix}:tasks:wait`;
    const positions = await fair.positions(['B0', 'B2', 'C1', 'A10', 'gone'], wait, 10_000);
    // Virtual times: A and B (Bronze) 0, 8, 16…; C (Silver) 0, 4; ties go by name.
    const ahead = (id: string) => positions.get(id)?.ahead;
    expect(ahead('B0')).toBe(1); // A0
    expect(ahead('C1')).toBe(3); // A0 B0 C0
    expect(ahead('B2')).toBe(3 + 2 + 2); // A0-2, B0-1, C0-1
    expect(ahead('A10')).toBe(10 + 3 + 2);
    expect(positions.has('gone')).toBe(false);
    // Nothing taken yet: no pace to estimate a start by.
    expect(positions.get('B0')?.estimatedStartMs).toBeNull();
    // Checked against the order the stage really hands them out in.
    const order = idsOf(await fair.take(20));
    for (const id of ['B0', 'B2', 'C1', 'A10']) expect(order.indexOf(id)).toBe(ahead(id));
    // A alone is left (A15 next); 20 were taken within this 10-20 s window: 15 ahead of A30
    // start in 7.5 to 15 s at that pace.
    const later = await fair.positions(['A30', 'A15'], wait, 10_000);
    expect(later.get('A15')).toEqual({ ahead: 0, estimatedStartMs: 0 });
    const estimate = later.get('A30')?.estimatedStartMs ?? 0;
    expect(later.get('A30')?.ahead).toBe(15);
    expect(estimate).toBeGreaterThanOrEqual(15 * (10_000 / 20));
    expect(estimate).toBeLessThanOrEqual(15 * (20_000 / 20));
  });

  it('counts every account ahead past the first thousand it looks at one by one', async () => {
    const { fair, prefix } = stage();
    const accounts = Array.from({ length: 1050 }, (_, i) => `a${String(i).padStart(4, '0')}`);
    await Promise.all(
      accounts.map((a) => fair.add({ accountId: a, taskId: `${a}-t` }, { weight: 1 })),
    );
    await fair.add({ accountId: 'z', taskId: 'late' }, { weight: 1 });
    const positions = await fair.positions(['late'], `${prefix}:tasks:wait`, 10_000);
    expect(positions.get('late')?.ahead).toBe(1050);
  });
});
