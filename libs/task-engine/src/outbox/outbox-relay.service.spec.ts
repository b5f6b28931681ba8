import { sleep } from '@genhub/testing';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { RedisConfig } from '@genhub/config';
import { type FairStage, JobName } from '@genhub/queue';
import type { OutboxRepository, OutboxRow } from '@genhub/tasks-data-access';
import { HANDOVER_DELETE_MS, OutboxRelay, REPLICA_WAIT_MS } from './outbox-relay.service';

/**
 * A queue whose primary has `connected` replicas (ROLE) of which `replicas`
 * acknowledge a WAIT, recording what it was asked.
 */
function fakeQueue(replicas: number, connected = 1) {
  const waits: [number, number][] = [];
  const added: string[] = [];
  const client = {
    role: async () => [
      'master',
      0,
      Array.from({ length: connected }, () => ['10.0.0.2', '6379', '0']),
    ],
    wait: async (n: number, ms: number) => {
      waits.push([n, ms]);
      return replicas;
    },
  };
  const queue = {
    add: async (_name: string, _data: unknown, opts: { jobId: string }) => added.push(opts.jobId),
    addBulk: async (jobs: { opts: { jobId: string } }[]) =>
      added.push(...jobs.map((j) => j.opts.jobId)),
    getBackend: () => ({ client: Promise.resolve(client) }),
  } as unknown as Queue;
  return { queue, waits, added };
}

function relayWith(
  topology: 'standalone' | 'sentinel',
  replicas: number,
  connected = 1,
  prefixChecked = true,
  fair = true,
) {
  const removed: number[] = [];
  const outbox = {
    hasDue: async () => false, // the poll finds nothing: only the hand-over moves rows
    remove: async (_manager: unknown, ids: number[]) => removed.push(...ids),
  } as unknown as OutboxRepository;
  const tasks = fakeQueue(replicas, connected);
  const other = fakeQueue(replicas, connected);
  const redis = { topology: { kind: topology } } as unknown as RedisConfig;
  const dataSource = { manager: {} } as unknown as DataSource;
  const staged: { taskId: string; weight: number; cap?: number | null }[] = [];
  const stage = {
    addAll: async (
      items: { task: { taskId: string }; share: { weight: number; maxConcurrentTasks?: number } }[],
    ) => {
      const idle = staged.length === 0; // the first batch finds the stage idle
      for (const { task, share } of items)
        staged.push({ taskId: task.taskId, weight: share.weight, cap: share.maxConcurrentTasks });
      return idle && items.length > 0;
    },
  } as unknown as FairStage;
  const vacuumCounts: number[] = [];
  const relay = new OutboxRelay(
    dataSource,
    outbox,
    tasks.queue,
    other.queue,
    other.queue,
    redis,
    { isVerified: prefixChecked },
    stage,
    { FAIR_SCHEDULING: fair },
    { deleted: (rows: number) => vacuumCounts.push(rows) },
  );
  relay.onApplicationBootstrap();
  return { relay, removed, tasks, staged, vacuumCounts };
}

const row = (id: number, account?: object): OutboxRow =>
  ({
    id,
    jobName: JobName.RunTask,
    jobId: `task-${id}`,
    payload: { v: 1, taskId: `t${id}`, ...account },
  }) as unknown as OutboxRow;

/** A run job's row as a submit writes it: with its account's line, level and cap. */
const accountRow = (id: number, level = 'Gold', maxConcurrentTasks?: number) =>
  row(id, { accountId: 'a1', level, ...(maxConcurrentTasks ? { maxConcurrentTasks } : {}) });

describe('OutboxRelay and the fair stage', () => {
  let running: OutboxRelay | undefined;
  afterEach(() => running?.onApplicationShutdown());

  it('stages run jobs that say their account, with the level’s weight and the cap', async () => {
    const { relay, removed, tasks, staged } = relayWith('standalone', 0);
    running = relay;
    relay.handOver([accountRow(1), accountRow(2, 'Bronze', 3), row(3)]);
    await sleep(HANDOVER_DELETE_MS + 50);
    expect(staged).toEqual([
      { taskId: 't1', weight: 4, cap: undefined },
      { taskId: 't2', weight: 1, cap: 3 },
    ]);
    // A row from before fair scheduling (no account) goes to the run queue as it did.
    expect(tasks.added).toEqual(['task-3']);
    expect(removed).toEqual([1, 2, 3]);
  });

  it('FAIR_SCHEDULING off: every run job goes to the run queue, first in first out', async () => {
    const { relay, tasks, staged } = relayWith('standalone', 0, 1, true, false);
    running = relay;
    relay.handOver([accountRow(1), accountRow(2)]);
    await sleep(HANDOVER_DELETE_MS + 50);
    expect([tasks.added, staged]).toEqual([['task-1', 'task-2'], []]);
  });

  it('Sentinel: a staged job’s row waits for a replica of the run queue’s connection', async () => {
    const { relay, removed, tasks } = relayWith('sentinel', 0);
    running = relay;
    relay.handOver([accountRow(7)]);
    await sleep(HANDOVER_DELETE_MS + 50);
    expect(tasks.waits).toEqual([[1, REPLICA_WAIT_MS]]);
    expect(removed).toEqual([]);
  });
});

describe('OutboxRelay hand-over', () => {
  let running: OutboxRelay | undefined;
  afterEach(() => running?.onApplicationShutdown());

  it('hands nothing over before the queue prefix is known to be this installation’s', async () => {
    const { relay, removed, tasks } = relayWith('standalone', 0, 1, false);
    running = relay;
    relay.handOver([row(1)]);
    await sleep(HANDOVER_DELETE_MS + 50);
    expect(await relay.drainOnce()).toBe(0);
    expect([tasks.added, removed]).toEqual([[], []]);
  });

  it('standalone: deletes handed-over rows without asking any replica, and counts them for the vacuum', async () => {
    const { relay, removed, tasks, vacuumCounts } = relayWith('standalone', 0);
    running = relay;
    relay.handOver([row(1), row(2)]);
    await sleep(HANDOVER_DELETE_MS + 50);
    expect(tasks.added).toEqual(['task-1', 'task-2']);
    expect(tasks.waits).toEqual([]);
    expect(removed).toEqual([1, 2]);
    expect(vacuumCounts).toEqual([2]);
  });

  it('Sentinel: deletes the rows once a replica has their jobs (WAIT 1)', async () => {
    const { relay, removed, tasks } = relayWith('sentinel', 1);
    running = relay;
    relay.handOver([row(3)]);
    await sleep(HANDOVER_DELETE_MS + 50);
    expect(tasks.waits).toEqual([[1, REPLICA_WAIT_MS]]);
    expect(removed).toEqual([3]);
  });

  it('Sentinel without a connected replica (after a failover): deletes without waiting', async () => {
    const { relay, removed, tasks } = relayWith('sentinel', 0, 0);
    running = relay;
    relay.handOver([row(5)]);
    await sleep(HANDOVER_DELETE_MS + 50);
    expect(tasks.waits).toEqual([]);
    expect(removed).toEqual([5]);
  });

  it('Sentinel: keeps the rows for the poll when no replica acknowledged the jobs', async () => {
    const { relay, removed, tasks, vacuumCounts } = relayWith('sentinel', 0);
    running = relay;
    relay.handOver([row(4)]);
    await sleep(HANDOVER_DELETE_MS + 50);
    expect(tasks.added).toEqual(['task-4']);
    expect(tasks.waits).toEqual([[1, REPLICA_WAIT_MS]]);
    expect([removed, vacuumCounts]).toEqual([[], []]);
  });
});
