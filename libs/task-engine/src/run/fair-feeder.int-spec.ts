import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  FairStage,
  fairStageOn,
  QueueName,
  type PubSubService,
  redisConnection,
} from '@genhub/queue';
import type { TaskConfig } from '@genhub/config';
import { deleteQueuePrefix, testQueuePrefix, until } from '@genhub/testing';
import { FairFeeder, UNCLAIMED_AFTER_MS } from './fair-feeder.service';

/**
 * The feeder on the real Redis and a real BullMQ run queue with no worker
 * (every job it adds stays waiting): it fills only its free slots, and
 * re-sends what a feeder that died took from the stage but never added.
 */
describe('FairFeeder (Redis, BullMQ)', () => {
  const url = process.env.REDIS_URL as string;
  const prefixes: string[] = [];
  const opened: { queue: Queue; feeder: FairFeeder }[] = [];

  afterAll(async () => {
    for (const { queue, feeder } of opened) {
      await feeder.onApplicationShutdown();
      await queue.close();
    }
    for (const prefix of prefixes) await deleteQueuePrefix(url, prefix);
  });

  function feederWith(slots: number) {
    const prefix = testQueuePrefix('feeder');
    prefixes.push(prefix);
    const queue = new Queue(QueueName.Tasks, { connection: redisConnection(url), prefix });
    const stage = fairStageOn(queue, prefix, 60_000);
    const pubsub = { subscribe: async () => () => undefined } as unknown as PubSubService;
    const feeder = new FairFeeder(stage, queue, pubsub, { isVerified: true }, {
      TASK_CONCURRENCY: slots,
    } as TaskConfig);
    opened.push({ queue, feeder });
    return { queue, stage, feeder };
  }
  const account = randomUUID();
  const staged = (stage: FairStage, n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        stage.add({ accountId: account, taskId: randomUUID() }, { weight: 1 }),
      ),
    );

  it('adds as many jobs as the process has free slots, counting those already waiting', async () => {
    const { queue, stage, feeder } = feederWith(2);
    await staged(stage, 5);
    feeder.onApplicationBootstrap();
    const jobs = await until(async () => {
      const waiting = await queue.getWaiting();
      return waiting.length === 2 ? waiting : undefined;
    });
    expect(jobs.map((j) => j.data)).toEqual([
      expect.objectContaining({ v: 1, accountId: account }),
      expect.objectContaining({ v: 1, accountId: account }),
    ]);
    // Fed again (a wake notice, the poll): the two still waiting fill the slots.
    feeder.feed();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await queue.getWaitingCount()).toBe(2);
    expect((await stage.size()).tasks).toBe(3);
  });

  it('keeps FEED_AHEAD_MS of short runs waiting beyond the free slots, none for long ones', async () => {
    const { queue, stage, feeder } = feederWith(2);
    await staged(stage, 10);
    feeder.onApplicationBootstrap();
    await until(async () => (await queue.getWaitingCount()) === 2);
    // A run of next to nothing ends: two slots free, and two more jobs' worth waits beyond them.
    feeder.started({ taskId: 'short' });
    feeder.ended({ taskId: 'short' });
    await until(async () => (await queue.getWaitingCount()) === 4);

    const { queue: slowQueue, stage: slowStage, feeder: slow } = feederWith(2);
    await staged(slowStage, 10);
    slow.started({ taskId: 'long' });
    await new Promise((resolve) => setTimeout(resolve, 300)); // runs of 300 ms: FEED_AHEAD_MS is no job
    slow.ended({ taskId: 'long' });
    slow.onApplicationBootstrap();
    await until(async () => (await slowQueue.getWaitingCount()) === 2);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await slowQueue.getWaitingCount()).toBe(2);
  });

  it('re-sends the tasks a dead feeder took but never added', async () => {
    const { queue, stage, feeder } = feederWith(1);
    await staged(stage, 3);
    // A feeder takes three and dies before adding them.
    const taken = await stage.take(3);
    expect(await queue.getWaitingCount()).toBe(0);
    feeder.onApplicationBootstrap();
    const resent = await until(
      async () => ((await queue.getWaitingCount()) === 3 ? queue.getWaiting() : undefined),
      { ms: UNCLAIMED_AFTER_MS + 5000, what: 'the re-send' },
    );
    expect(resent.map((j) => j.data.taskId).sort()).toEqual(taken.map((t) => t.taskId).sort());
  }, 20_000);
});
