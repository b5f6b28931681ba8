import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { QueueName } from '@genhub/queue';
import { join } from 'node:path';
import { deployRoot, readObjects } from './kustomize';

// The KEDA ScaledObjects read LLEN of `<prefix>:<queue>:wait` and `:active`.
// This proves, against real Redis and the BullMQ version we ship, that those
// keys are lists and count exactly the waiting and the running jobs.
const prefix = `deploy-test-${randomBytes(4).toString('hex')}`;
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new IORedis(url, { maxRetriesPerRequest: null });

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

it('waiting and running BullMQ jobs are the LLEN of <prefix>:<queue>:wait and :active', async () => {
  const queue = new Queue(QueueName.Tasks, { connection: redis, prefix });
  await queue.addBulk([1, 2, 3].map((n) => ({ name: 'run-task', data: { n } })));
  expect(await redis.type(`${prefix}:tasks:wait`)).toBe('list');
  expect(await redis.llen(`${prefix}:tasks:wait`)).toBe(3);

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  const workerConnection = new IORedis(url, { maxRetriesPerRequest: null });
  const worker = new Worker(
    QueueName.Tasks,
    async () => {
      started++;
      await held;
    },
    { connection: workerConnection, prefix, concurrency: 2 },
  );
  try {
    const deadline = Date.now() + 5000;
    while (started < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await redis.type(`${prefix}:tasks:active`)).toBe('list');
    expect(await redis.llen(`${prefix}:tasks:active`)).toBe(2);
    expect(await redis.llen(`${prefix}:tasks:wait`)).toBe(1);
  } finally {
    release();
    await worker.close();
    await queue.close();
    await workerConnection.quit();
  }
});

it('the ScaledObjects watch exactly those lists for the tasks and webhooks queues', () => {
  const lists = ['task-worker', 'webhook-dispatcher'].flatMap((app) =>
    readObjects(join(deployRoot, 'base', `${app}.yaml`))
      .filter((o) => o.kind === 'ScaledObject')
      .flatMap((o) => (o.spec as { triggers: { metadata: { listName: string } }[] }).triggers)
      .map((t) => t.metadata.listName),
  );
  expect(lists.sort()).toEqual(
    [QueueName.Tasks, QueueName.Webhooks]
      .flatMap((q) => [`genhub:${q}:active`, `genhub:${q}:wait`])
      .sort(),
  );
});
