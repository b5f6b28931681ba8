import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { TaskConfig } from '@genhub/config';
import { MetricsService } from '@genhub/observability';
import {
  FairStage,
  fairStageOn,
  QueueName,
  type PubSubService,
  type RedisClient,
  redisConnection,
} from '@genhub/queue';
import { deleteQueuePrefix, testQueuePrefix, until } from '@genhub/testing';
import { FairRunner, RETRY_AFTER_MS } from './fair-runner.service';
import type { RunTaskInput, RunTaskReport, RunTaskUseCase } from './run-task.use-case';

/** Runs held open by the test: each ends when the test says. */
class HeldRuns {
  readonly started: string[] = [];
  private readonly ends = new Map<string, (report: RunTaskReport | Error) => void>();
  failNext = 0;

  readonly useCase = {
    execute: (input: RunTaskInput) => {
      this.started.push(input.taskId);
      if (this.failNext > 0) {
        this.failNext--;
        return Promise.reject(new Error('database away'));
      }
      return new Promise<RunTaskReport>((resolve, reject) =>
        this.ends.set(input.taskId, (end) => (end instanceof Error ? reject(end) : resolve(end))),
      );
    },
  } as unknown as RunTaskUseCase;

  get open(): number {
    return this.ends.size;
  }

  end(taskId: string): void {
    this.ends.get(taskId)?.({ outcome: 'completed', model: 'm', code: 0 });
    this.ends.delete(taskId);
  }

  endAll(): void {
    for (const id of [...this.ends.keys()]) this.end(id);
  }
}

/**
 * The runner on the real Redis (its stage and run queue under a prefix of
 * the test's own), with the run itself held by the test: it runs only as
 * many tasks as it has slots, restages what a dead worker held once the lease
 * lapses, retries a run that threw, and on shutdown gives back what it took
 * ahead and lets the runs in flight end.
 */
describe('FairRunner (Redis)', () => {
  const url = process.env.REDIS_URL as string;
  const prefixes: string[] = [];
  const queues: Queue[] = [];
  const runners: FairRunner[] = [];
  const helds: HeldRuns[] = [];
  const metrics = new MetricsService();

  afterAll(async () => {
    // A failed test may leave runs open: end them, or the runners' shutdown waits for them.
    for (const held of helds) held.endAll();
    for (const runner of runners) await runner.onModuleDestroy();
    for (const queue of queues) await queue.close();
    for (const prefix of prefixes) await deleteQueuePrefix(url, prefix);
    metrics.onApplicationShutdown();
  }, 30_000);

  function setUp(prefix = testQueuePrefix('runner')) {
    if (!prefixes.includes(prefix)) prefixes.push(prefix);
    const queue = new Queue(QueueName.Tasks, { connection: redisConnection(url), prefix });
    queues.push(queue);
    return { prefix, queue, stage: fairStageOn(queue, prefix, 60_000) };
  }

  function runnerOn(
    { queue, stage }: { queue: Queue; stage: FairStage },
    slots: number,
    lockMs = 30_000,
    ownership = { isVerified: true },
  ) {
    const held = new HeldRuns();
    const pubsub = { subscribe: async () => () => undefined } as unknown as PubSubService;
    const runner = new FairRunner(
      stage,
      held.useCase,
      queue,
      pubsub,
      ownership,
      { TASK_CONCURRENCY: slots, TASK_LOCK_MS: lockMs } as TaskConfig,
      metrics,
    );
    runners.push(runner);
    helds.push(held);
    return { runner, held };
  }

  const account = randomUUID();
  async function staged(stage: FairStage, n: number): Promise<string[]> {
    const ids = Array.from({ length: n }, () => randomUUID());
    for (const taskId of ids) await stage.add({ accountId: account, taskId }, { weight: 1 });
    return ids;
  }

  it('runs as many tasks as it has slots, in submit order, and the next as each ends', async () => {
    const set = setUp();
    const ids = await staged(set.stage, 5);
    const { runner, held } = runnerOn(set, 2);
    runner.onApplicationBootstrap();
    await until(() => held.started.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(held.started).toEqual(ids.slice(0, 2));
    expect((await set.stage.size()).tasks).toBe(3);

    held.end(ids[0]);
    await until(() => held.started.length === 3);
    expect(held.started[2]).toBe(ids[2]);
    // The end was reported with that take: the task left the stage.
    expect(await set.stage.holds(ids[0])).toBe(false);
    expect(await set.stage.holds(ids[1])).toBe(true);

    // A run queue job running in this process takes a slot too.
    runner.started({ taskId: 'queue-job' });
    held.end(ids[1]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(held.started).toHaveLength(3);
    runner.ended({ taskId: 'queue-job' });
    await until(() => held.started.length === 4);
    held.endAll();
    await until(() => held.started.length === 5);
    held.endAll();
    await until(async () => !(await set.stage.holds(ids[4])));
    // Each run's wait in the stage is the tasks queue's wait, as with the run queue's jobs.
    const waits = await metrics.registry.getMetricsAsJSON();
    const count = waits
      .find((m) => m.name === 'genhub_queue_job_wait_seconds')
      ?.values.find(
        (v) =>
          (v as { metricName?: string }).metricName === 'genhub_queue_job_wait_seconds_count' &&
          v.labels.queue === 'tasks',
      );
    expect(count?.value).toBe(5);
  });

  it('restages the tasks of a worker that died, once their leases lapse', async () => {
    const set = setUp();
    const ids = await staged(set.stage, 3);
    // A worker takes two and dies without renewing or reporting.
    expect((await set.stage.take(2)).map((t) => t.taskId)).toEqual(ids.slice(0, 2));
    const { runner, held } = runnerOn(set, 5, 1000);
    runner.onApplicationBootstrap();
    await until(() => held.started.length === 1);
    expect(held.started).toEqual([ids[2]]);
    // Its own run is renewed (every 500 ms) and not restaged; the dead worker's two come back, in order.
    await until(() => held.started.length === 3, { ms: 5000, what: 'the restaged tasks' });
    expect(held.started).toEqual([ids[2], ids[0], ids[1]]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(held.started).toHaveLength(3);
    held.endAll();
  }, 15_000);

  const clientOf = async (queue: Queue) =>
    (await queue.getBackend().client) as unknown as RedisClient;

  /** Whether the runner is registered idle in its stage (decision 0143). */
  async function registered(set: { queue: Queue; prefix: string }, runner: FairRunner) {
    const redis = await clientOf(set.queue);
    return (await redis.zscore(`${set.prefix}:fair:idle`, runner.taker.id)) !== null;
  }

  it('starts what an add hands it while idle, without a take of its own', async () => {
    const set = setUp();
    const { runner, held } = runnerOn(set, 2);
    const taken: string[] = [];
    const take = set.stage.take.bind(set.stage);
    jest.spyOn(set.stage, 'take').mockImplementation(async (...args) => {
      const tasks = await take(...args);
      taken.push(...tasks.map((t) => t.taskId));
      return tasks;
    });
    runner.onApplicationBootstrap();
    await until(() => registered(set, runner));
    // No wake notice reaches this runner (its pubsub is a stub): only the hand-over can start it now.
    const [id] = await staged(set.stage, 1);
    await until(() => held.started.length === 1, { ms: 900, what: 'the handed task' });
    expect(held.started).toEqual([id]);
    expect(taken).not.toContain(id);
    held.endAll();
    await until(async () => !(await set.stage.holds(id)));
    // Its end was reported with a take, which registered it idle again.
    expect(await registered(set, runner)).toBe(true);
  });

  it('on shutdown is no longer handed anything, and gives back what it was handed and did not start', async () => {
    const set = setUp();
    const { runner, held } = runnerOn(set, 1);
    runner.onApplicationBootstrap();
    await until(() => registered(set, runner));
    const [first] = await staged(set.stage, 1);
    await until(() => held.started.length === 1);
    // Its one slot is busy; a registration from before (as a race leaves one) still gets it a task.
    const redis = await clientOf(set.queue);
    await redis.zadd(`${set.prefix}:fair:idle`, Date.now() + 60_000, runner.taker.id);
    await redis.hset(`${set.prefix}:fair:idle-slots`, runner.taker.id, 1);
    const [second] = await staged(set.stage, 1);
    await until(
      async () => (await redis.llen(`${set.prefix}:fair:inbox:${runner.taker.id}`)) === 0,
    );
    const stopping = runner.onModuleDestroy();
    held.endAll();
    await stopping;
    expect(held.started).toEqual([first]);
    expect(await registered(set, runner)).toBe(false);
    const [third] = await staged(set.stage, 1);
    expect((await set.stage.take(5)).map((t) => t.taskId)).toEqual([second, third]);
  });

  it('gives back what it is handed once it no longer owns the prefix (decision 0126)', async () => {
    const set = setUp();
    const ownership = { isVerified: true };
    const { runner, held } = runnerOn(set, 2, 30_000, ownership);
    runner.onApplicationBootstrap();
    await until(() => registered(set, runner));
    ownership.isVerified = false;
    const [id] = await staged(set.stage, 1);
    await until(async () => (await set.stage.size()).tasks === 1, {
      what: 'the task back in line',
    });
    expect(held.started).toEqual([]);
    expect((await set.stage.take(1)).map((t) => t.taskId)).toEqual([id]);
  });

  it('runs again a run that threw, after RETRY_AFTER_MS', async () => {
    const set = setUp();
    const [id] = await staged(set.stage, 1);
    const { runner, held } = runnerOn(set, 1);
    held.failNext = 1;
    runner.onApplicationBootstrap();
    await until(() => held.started.length === 1);
    const threw = Date.now();
    await until(() => held.started.length === 2, { ms: RETRY_AFTER_MS + 3000, what: 'the retry' });
    expect(Date.now() - threw).toBeGreaterThanOrEqual(RETRY_AFTER_MS - 100);
    expect(held.started).toEqual([id, id]);
    held.endAll();
  }, 10_000);

  it('on shutdown gives back what it took ahead and lets the runs in flight end', async () => {
    const set = setUp();
    const ids = await staged(set.stage, 6);
    const { runner, held } = runnerOn(set, 2);
    runner.onApplicationBootstrap();
    await until(() => held.open === 2);
    // Runs of next to nothing: it keeps TAKE_AHEAD_MS of them taken ahead of its slots.
    held.end(ids[0]);
    held.end(ids[1]);
    await until(() => held.open === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopping = runner.onModuleDestroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    let stopped = false;
    void stopping.then(() => (stopped = true));
    expect(stopped).toBe(false); // two runs still in flight
    const running = held.started.slice(2);
    held.endAll();
    await stopping;
    // Nothing of this worker's is left: its two ends reported, the rest waiting again in order.
    for (const id of [...ids.slice(0, 2), ...running])
      expect(await set.stage.holds(id)).toBe(false);
    const rest = ids.filter((id) => !held.started.includes(id));
    expect((await set.stage.take(10)).map((t) => t.taskId)).toEqual(rest);
  });
});
