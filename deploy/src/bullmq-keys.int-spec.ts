import { randomBytes } from 'node:crypto';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import IORedis from 'ioredis';
import { bullConnection, closeQueue, createRedisClient, QueueName } from '@genhub/queue';
import { startRedisCluster } from '@genhub/testing';
import { join } from 'node:path';
import { deployRoot, readObjects, renderKustomization } from './kustomize';

// The KEDA ScaledObjects read LLEN of `<prefix>:<queue>:wait` and `:active` (the
// task-workers' waiting work, fair stage included, is the gateway's gauge instead).
// This proves, against real Redis (standalone, and a Redis Cluster with the
// hash-tagged prefix) and the BullMQ version we ship, that those keys are
// lists and count exactly the waiting and the running jobs.
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Adds 3 jobs, runs 2 of them (held), and reads the lists as KEDA does, by `llen`. */
async function expectListsCount(
  connection: () => ConnectionOptions,
  prefix: string,
  llen: (key: string) => Promise<number>,
  type: (key: string) => Promise<string>,
): Promise<void> {
  const queue = new Queue(QueueName.Tasks, { connection: connection(), prefix });
  const workerConnection = connection();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  let worker: Worker | undefined;
  try {
    await queue.addBulk([1, 2, 3].map((n) => ({ name: 'run-task', data: { n } })));
    expect(await type(`${prefix}:tasks:wait`)).toBe('list');
    expect(await llen(`${prefix}:tasks:wait`)).toBe(3);
    worker = new Worker(
      QueueName.Tasks,
      async () => {
        started++;
        await held;
      },
      { connection: workerConnection, prefix, concurrency: 2 },
    );
    const deadline = Date.now() + 5000;
    while (started < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await type(`${prefix}:tasks:active`)).toBe('list');
    expect(await llen(`${prefix}:tasks:active`)).toBe(2);
    expect(await llen(`${prefix}:tasks:wait`)).toBe(1);
  } finally {
    release();
    await worker?.close();
    await closeQueue(queue);
    if (workerConnection instanceof IORedis.Cluster || workerConnection instanceof IORedis)
      await workerConnection.quit();
  }
}

it('waiting and running BullMQ jobs are the LLEN of <prefix>:<queue>:wait and :active', async () => {
  const prefix = `deploy-test-${randomBytes(4).toString('hex')}`;
  const redis = new IORedis(url, { maxRetriesPerRequest: null });
  try {
    await expectListsCount(
      () => new IORedis(url, { maxRetriesPerRequest: null }),
      prefix,
      (key) => redis.llen(key),
      (key) => redis.type(key),
    );
  } finally {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
});

it('on a Redis Cluster the same lists, under the hash-tagged prefix, count the same', async () => {
  const cluster = await startRedisCluster(3);
  try {
    const prefix = cluster.queuePrefix('deploy');
    const config = cluster.config(prefix);
    // What KEDA's redis-cluster scaler does: LLEN through a cluster client.
    const reader = createRedisClient(config);
    try {
      await expectListsCount(
        () => bullConnection(config),
        prefix,
        (key) => reader.llen(key),
        (key) => reader.type(key),
      );
    } finally {
      reader.disconnect();
    }
  } finally {
    await cluster.stop();
  }
}, 60_000);

it('the ScaledObjects watch exactly those lists for the tasks and webhooks queues', () => {
  const listsOf = (objects: { kind: string; spec?: unknown }[]) =>
    objects
      .filter((o) => o.kind === 'ScaledObject')
      .flatMap((o) => (o.spec as { triggers: { metadata: { listName?: string } }[] }).triggers)
      .flatMap((t) => (t.metadata.listName ? [t.metadata.listName] : []))
      .sort();
  const lists = listsOf(
    ['task-worker', 'webhook-dispatcher'].flatMap((app) =>
      readObjects(join(deployRoot, 'base', `${app}.yaml`)),
    ),
  );
  // The tasks' waiting work is not a list: the fair stage's hash plus the wait list, summed by
  // the gateway's genhub_tasks_waiting and read through Prometheus (issue 36).
  const expected = (prefix: string) =>
    [
      `${prefix}:${QueueName.Tasks}:active`,
      `${prefix}:${QueueName.Webhooks}:active`,
      `${prefix}:${QueueName.Webhooks}:wait`,
    ].sort();
  expect(lists).toEqual(expected('genhub'));
  expect(listsOf(renderKustomization(join(deployRoot, 'overlays', 'redis-cluster')))).toEqual(
    expected('{genhub}'),
  );
});
