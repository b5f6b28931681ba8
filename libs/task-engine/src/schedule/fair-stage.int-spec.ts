import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { deleteQueuePrefix, testQueuePrefix } from '@genhub/testing';
import { FairStage } from './fair-stage';

/** The fair stage on the real Redis, each test on a prefix of its own. */
describe('FairStage (Redis)', () => {
  const url = process.env.REDIS_URL as string;
  const prefixes: string[] = [];
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(url);
  });
  afterAll(async () => {
    redis.disconnect();
    for (const prefix of prefixes) await deleteQueuePrefix(url, prefix);
  });

  function stage(): FairStage {
    const prefix = testQueuePrefix('fair');
    prefixes.push(prefix);
    return new FairStage(redis, prefix);
  }
  const tasks = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
  const accountsOf = (taken: { accountId: string }[]) => taken.map((t) => t.accountId).join('');

  it('keeps one account’s tasks in submit order, and empties', async () => {
    const fair = stage();
    for (const task of tasks(5)) await fair.add('A', task, 'Bronze');
    expect((await fair.take(3)).map((t) => t.taskId)).toEqual(['t0', 't1', 't2']);
    expect((await fair.take(10)).map((t) => t.taskId)).toEqual(['t3', 't4']);
    expect(await fair.take(10)).toEqual([]);
  });

  it('serves a newcomer next, however long the backlog ahead of it', async () => {
    const fair = stage();
    for (const task of tasks(2000)) await fair.add('A', task, 'Bronze');
    expect(accountsOf(await fair.take(3))).toBe('AAA');
    await fair.add('B', 'quiet', 'Bronze');
    const next = await fair.take(2);
    expect(next.map((t) => t.accountId)).toContain('B');
    expect(next.find((t) => t.accountId === 'B')?.taskId).toBe('quiet');
  });

  it('alternates equal accounts, and grants each level its weight', async () => {
    const equal = stage();
    for (const task of tasks(6)) await equal.add('A', task, 'Silver');
    for (const task of tasks(6)) await equal.add('B', task, 'Silver');
    expect(accountsOf(await equal.take(6))).toBe('ABABAB');

    const weighted = stage();
    for (const task of tasks(100)) await weighted.add('G', task, 'Gold');
    for (const task of tasks(100)) await weighted.add('b', task, 'Bronze');
    const first = accountsOf(await weighted.take(50));
    // Gold 4 : Bronze 1 while both wait.
    expect(first.split('').filter((a) => a === 'G')).toHaveLength(40);
  });

  it('gives an account that waited nothing no credit for its idle time', async () => {
    const fair = stage();
    for (const task of tasks(100)) await fair.add('A', task, 'Bronze');
    await fair.take(50); // A alone: every slot
    for (const task of tasks(10)) await fair.add('B', task, 'Bronze');
    // B joins at the current time: the two alternate, B does not take ten in a row.
    const next = accountsOf(await fair.take(6));
    expect(next).toMatch(/^(AB|BA){3}$/);
  });

  it('takes a deleted task out of its line, and its account out when the line empties', async () => {
    const fair = stage();
    const [a, b] = [randomUUID(), randomUUID()];
    await fair.add(a, 'x', 'Bronze');
    await fair.add(b, 'y', 'Bronze');
    await fair.add(b, 'z', 'Bronze');
    expect(await fair.remove(a, 'x')).toBe(true);
    expect(await fair.remove(a, 'x')).toBe(false);
    expect(await fair.remove(b, 'y')).toBe(true);
    expect(await fair.take(5)).toEqual([{ accountId: b, taskId: 'z' }]);
  });
});
