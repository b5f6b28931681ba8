import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  FairStage,
  fairStageOn,
  jobIdFor,
  JobName,
  QueueName,
  redisConnection,
} from '@genhub/queue';
import { deleteQueuePrefix, testQueuePrefix } from '@genhub/testing';
import { QueuePositions } from './queue-positions.service';

/**
 * Queue positions off a real BullMQ wait list and fair stage (no worker:
 * every job waits). Both ways of reading the wait list agree: one LPOS per
 * task for a few, one pass over the list for many; a task in the stage
 * stands behind the whole wait list, at its fair place.
 */
describe('QueuePositions (Redis)', () => {
  const redisUrl = process.env.REDIS_URL as string;
  const prefix = testQueuePrefix('positions');
  let queue: Queue;
  let positions: QueuePositions;
  let stage: FairStage;
  const tasks = Array.from({ length: 20 }, () => randomUUID());

  beforeAll(async () => {
    queue = new Queue(QueueName.Tasks, { connection: redisConnection(redisUrl), prefix });
    for (const taskId of tasks)
      await queue.add(
        JobName.RunTask,
        { v: 1, taskId },
        { jobId: jobIdFor(JobName.RunTask, taskId) },
      );
    stage = fairStageOn(queue, prefix, 60_000);
    positions = new QueuePositions(queue, stage);
  });
  afterAll(async () => {
    await queue.close();
    await deleteQueuePrefix(redisUrl, prefix);
  });

  it('counts the tasks ahead of each, the first enqueued next (0)', async () => {
    const many = await positions.of(tasks);
    expect(tasks.map((id) => many.get(id)?.ahead)).toEqual(tasks.map((_, i) => i));
    const few = await positions.of([tasks[0], tasks[7], tasks[19]]);
    expect([...few.entries()]).toEqual([
      [tasks[0], { ahead: 0, estimatedStartMs: 0 }],
      [tasks[7], { ahead: 7, estimatedStartMs: null }],
      [tasks[19], { ahead: 19, estimatedStartMs: null }],
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
    expect(after.get(tasks[1])?.ahead).toBe(0);
    expect(after.get(tasks[19])?.ahead).toBe(18);
  });

  it('puts a task of the fair stage behind the wait list, at its fair place', async () => {
    // Named so that noisy sorts first: equal virtual times go by name.
    const [noisy, quiet] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const backlog = Array.from({ length: 50 }, () => randomUUID());
    for (const taskId of backlog) await stage.add({ accountId: noisy, taskId }, { weight: 1 });
    const late = randomUUID();
    await stage.add({ accountId: quiet, taskId: late }, { weight: 1 });
    const found = await positions.of([late, backlog[49]]);
    // 19 jobs still in the wait list; the quiet account's one task goes after noisy's first.
    expect(found.get(late)?.ahead).toBe(19 + 1);
    expect(found.get(backlog[49])?.ahead).toBe(19 + 49 + 1);
  });
});
