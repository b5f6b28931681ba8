import { Queue, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import type { RedisConfig } from '@genhub/config';
import {
  deleteQueuePrefix,
  redisCli,
  type RedisTestCluster,
  startRedisCluster,
  until,
} from '@genhub/testing';
import { bullConnection, PubSubChannel, closeQueue, PubSubService, QueueName } from '@genhub/queue';

/** The connections of the queue lib (`redis-connection.util.ts`) against a real three-primary Redis Cluster of this test's own. */
describe('Redis connections on a Redis Cluster', () => {
  let cluster: RedisTestCluster;
  let config: RedisConfig;
  let prefix: string;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    prefix = cluster.queuePrefix('queue');
    config = cluster.config(prefix);
  }, 60_000);

  afterAll(() => cluster?.stop());

  const keysPerPrimary = () =>
    Promise.all(
      cluster.ports.map(async (port) =>
        (await redisCli(port, '--scan', '--pattern', `${prefix}:*`)).split('\n').filter(Boolean),
      ),
    );

  it('a BullMQ queue and worker run a job; closing ends the queue’s own Cluster client', async () => {
    const queue = new Queue(QueueName.Tasks, { connection: bullConnection(config), prefix });
    const worker = new Worker(QueueName.Tasks, async (job) => (job.data as { n: number }).n * 2, {
      connection: bullConnection(config),
      prefix,
    });
    const done = new Promise((resolve) =>
      worker.once('completed', (_job, value) => resolve(value)),
    );
    await queue.add('run-task', { n: 21 }, { jobId: 'task-1' });
    expect(await done).toBe(42);
    const client = (await queue.getBackend().client) as unknown as Cluster;
    expect(client).toBeInstanceOf(Cluster);
    await worker.close();
    await (worker.opts.connection as Cluster).quit();
    await closeQueue(queue);
    expect(client.status).toBe('end');
    // BullMQ's scripts touched many keys of the queue: all in the hash tag's one slot, on one primary.
    const perPrimary = await keysPerPrimary();
    expect(perPrimary.flat().length).toBeGreaterThan(3);
    expect(perPrimary.filter((keys) => keys.length)).toHaveLength(1);
  });

  it('pub/sub: a notice published by one process reaches the subscribers of another', async () => {
    const publisher = new PubSubService(config);
    const subscriber = new PubSubService(config);
    try {
      const received: string[] = [];
      await subscriber.subscribe(PubSubChannel.TaskTerminal, (message) => received.push(message));
      await publisher.publish(PubSubChannel.TaskTerminal, 'task-a');
      await publisher.publish(PubSubChannel.AuthChanged, 'not-subscribed');
      await until(async () => received.length > 0, 5000);
      expect(received).toEqual(['task-a']);
      await publisher.ping();
    } finally {
      await Promise.all([publisher.onApplicationShutdown(), subscriber.onApplicationShutdown()]);
    }
  });

  it('deleteQueuePrefix empties the prefix on every primary, and nothing else', async () => {
    await redisCli(cluster.ports[1], '-c', 'SET', 'other-prefix:kept', '1');
    await deleteQueuePrefix(config, prefix);
    expect((await keysPerPrimary()).flat()).toEqual([]);
    expect(await redisCli(cluster.ports[1], '-c', 'GET', 'other-prefix:kept')).toBe('1');
  });
});
