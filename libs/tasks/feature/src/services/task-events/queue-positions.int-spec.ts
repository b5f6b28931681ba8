import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { jobIdFor, JobName, QueueName, redisConnection } from '@genhub/queue';
import { deleteQueuePrefix, testQueuePrefix } from '@genhub/testing';
import { QueuePositions } from './queue-positions.service';

/**
 * Queue positions off a real BullMQ wait list (no worker: every job waits).
 * Both ways of reading agree: one LPOS per task for a few, one pass over the
 * list for many.
 */
describe('QueuePositions (Redis)', () => {
  const redisUrl = process.env.REDIS_URL as string;
  const prefix = testQueuePrefix('positions');
  let queue: Queue;
  let positions: QueuePositions;
  const tasks = Array.from({ length: 20 }, () => randomUUID());

  beforeAll(async () => {
    queue = new Queue(QueueName.Tasks, { connection: redisConnection(redisUrl), prefix });
    for (const taskId of tasks)
      await queue.add(
        JobName.RunTask,
        { v: 1, taskId },
        { jobId: jobIdFor(JobName.RunTask, taskId) },
      );
    positions = new QueuePositions(queue);
  });
  afterAll(async () => {
    await queue.close();
    await deleteQueuePrefix(redisUrl, prefix);
  });

  it('counts the tasks ahead of each, the first enqueued next (0)', async () => {
    const many = await positions.of(tasks);
    expect(tasks.map((id) => many.get(id))).toEqual(tasks.map((_, i) => i));
    const few = await positions.of([tasks[0], tasks[7], tasks[19]]);
    expect([...few.entries()]).toEqual([
      [tasks[0], 0],
      [tasks[7], 7],
      [tasks[19], 19],
    ]);
  });

  it('has no position for a task not waiting, and moves up as the front leaves', async () => {
    const stranger = randomUUID();
    expect((await positions.of([stranger])).has(stranger)).toBe(false);
    const list = [...tasks, stranger];
    expect((await positions.of(list)).has(stranger)).toBe(false);
    const client = await queue.getBackend().client;
    await client.runCommand('rpop', [queue.toKey('wait')]);
    const after = await positions.of(tasks);
    expect(after.has(tasks[0])).toBe(false);
    expect(after.get(tasks[1])).toBe(0);
    expect(after.get(tasks[19])).toBe(18);
  });
});
