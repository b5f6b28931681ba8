import { InjectQueue } from '@nestjs/bullmq';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { RedisConfig, TaskConfig } from '@genhub/config';
import { LEVEL_WEIGHTS, type AccountLevel } from '@genhub/contracts';
import {
  FairStage,
  JOB_OPTIONS,
  JOB_QUEUE,
  JobItem,
  JobName,
  jobIdFor,
  QueueName,
  QueuePrefixOwnership,
  RunTaskJob,
} from '@genhub/queue';
import { OutboxItem, OutboxRepository, OutboxRow } from '@genhub/tasks-data-access';
import { OutboxVacuum } from './outbox-vacuum.service';

/** An outbox row for one job, with its deterministic id. */
export function outboxItem(job: JobItem): OutboxItem {
  return { jobName: job.name, jobId: jobIdFor(job.name, job.data.taskId), payload: job.data };
}

export const OUTBOX_POLL_MS = 200;
export const OUTBOX_BATCH = 200;
/**
 * The poll leaves rows younger than this to the process that wrote them
 * (handOver); older ones were not handed over (crash, Redis outage).
 */
export const HANDOVER_GRACE_MS = 2000;
/**
 * Handed-over rows are deleted together at most this long after they were
 * enqueued: at a trickle each row would otherwise cost a DELETE round trip
 * of its own. Well under HANDOVER_GRACE_MS, so the poll never sees them.
 */
export const HANDOVER_DELETE_MS = 100;
const ENQUEUE_TIMEOUT_MS = 5000;
/**
 * With Sentinel, how long a hand-over waits for a replica to have its jobs
 * (WAIT) before deleting their rows; a job acknowledged only by a primary
 * that then dies is lost with it, so its row must stay for the poll.
 */
export const REPLICA_WAIT_MS = 50;
/** How long the primary's count of connected replicas (ROLE) is trusted. */
export const REPLICA_COUNT_TTL_MS = 1000;

/**
 * Moves outbox rows to BullMQ. The writer hands its just-committed rows over
 * directly (`handOver`): they are added in bulk under their deterministic ids
 * (batched with whatever else committed meanwhile) and deleted together a
 * moment later. The poll is the safety net: every OUTBOX_POLL_MS it claims rows
 * older than HANDOVER_GRACE_MS with FOR UPDATE SKIP LOCKED (so several relays
 * share the work), adds them (a re-sent row is a no-op), deletes them and
 * commits. A crash or a Redis outage between commit and enqueue loses
 * nothing: the rows stay until a relay has handed them over. With Sentinel
 * (a replica to fail over to) a row is deleted only once a replica has its
 * job too, so a failover right after the hand-over loses nothing either.
 * Nothing is handed over before the queue prefix is known to be this
 * installation's (QueuePrefixOwnership): until then the rows wait.
 * A run job that says its account goes to the fair stage instead of the run
 * queue (FAIR_SCHEDULING, decision 0133): the task-workers' fair runners take it
 * from there in fair order. A re-sent one is a no-op there too. The rows it
 * deletes are counted for OutboxVacuum.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly queues: Record<QueueName, Queue>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private handing: OutboxRow[] = [];
  private handingOver?: Promise<void>;
  /** Ids enqueued by handOver and not deleted yet. */
  private enqueuedIds: number[] = [];
  private deleteTimer?: NodeJS.Timeout;
  private deleting: Promise<void> = Promise.resolve();
  /** With Sentinel a job's row goes only once a replica holds the job too. */
  private readonly waitForReplica: boolean;
  private replicasConnected = { count: 0, at: -Infinity };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxRepository,
    @InjectQueue(QueueName.Tasks) tasks: Queue,
    @InjectQueue(QueueName.Billing) billing: Queue,
    @InjectQueue(QueueName.Webhooks) webhooks: Queue,
    redis: RedisConfig,
    @Inject(QueuePrefixOwnership)
    private readonly ownership: Pick<QueuePrefixOwnership, 'isVerified'>,
    private readonly fairStage: FairStage,
    @Inject(TaskConfig) taskConfig: Pick<TaskConfig, 'FAIR_SCHEDULING'>,
    @Inject(OutboxVacuum) private readonly vacuum: Pick<OutboxVacuum, 'deleted'>,
  ) {
    this.queues = { tasks, billing, webhooks };
    this.waitForReplica = redis.topology.kind === 'sentinel';
    this.fair = taskConfig.FAIR_SCHEDULING;
  }

  /** Whether run jobs go through the fair stage (FAIR_SCHEDULING). */
  private readonly fair: boolean;

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all([this.running, this.handingOver]);
    await this.deleteEnqueued();
  }

  /**
   * Enqueues rows the caller has just committed and deletes them afterwards
   * (batched, within HANDOVER_DELETE_MS); never throws (what fails stays in
   * the outbox for the poll, and re-sending a row is a no-op). Rows handed
   * over while a batch is in flight form the next batch.
   */
  handOver(rows: OutboxRow[]): void {
    if (!rows.length || this.stopped || !this.ownership.isVerified) return;
    this.handing.push(...rows);
    this.handingOver ??= this.handOverAll().finally(() => (this.handingOver = undefined));
  }

  private async handOverAll(): Promise<void> {
    while (this.handing.length) {
      const batch = this.handing.splice(0, OUTBOX_BATCH);
      try {
        if (!(await this.replicated(await this.enqueue(batch)))) {
          this.logger.warn('outbox hand-over: no replica has the jobs yet (the poll re-sends)');
          continue;
        }
      } catch (error) {
        this.logger.warn(`outbox hand-over (the poll retries): ${(error as Error).message}`);
        continue;
      }
      this.enqueuedIds.push(...batch.map((r) => r.id));
      if (this.enqueuedIds.length >= OUTBOX_BATCH) void this.deleteEnqueued();
      else this.deleteTimer ??= setTimeout(() => void this.deleteEnqueued(), HANDOVER_DELETE_MS);
    }
  }

  /** Deletes the rows enqueued so far in one statement, after any delete under way. */
  private deleteEnqueued(): Promise<void> {
    clearTimeout(this.deleteTimer);
    this.deleteTimer = undefined;
    const ids = this.enqueuedIds.splice(0);
    if (ids.length)
      this.deleting = this.deleting.then(() =>
        this.outbox.remove(this.dataSource.manager, ids).then(
          () => this.vacuum.deleted(ids.length),
          (error: Error) => {
            this.logger.warn(`outbox delete after hand-over (the poll re-sends): ${error.message}`);
          },
        ),
      );
    return this.deleting;
  }

  private schedule(delay: number): void {
    this.timer = setTimeout(() => {
      this.running = this.drainAll().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(OUTBOX_POLL_MS);
      });
    }, delay);
  }

  private async drainAll(): Promise<void> {
    try {
      while ((await this.drainOnce()) === OUTBOX_BATCH && !this.stopped);
    } catch (error) {
      this.logger.warn(`outbox relay: ${(error as Error).message}`);
    }
  }

  /** Hands one batch over; returns how many rows it moved. */
  async drainOnce(): Promise<number> {
    if (!this.ownership.isVerified) return 0;
    // Nearly every poll finds nothing: ask with one statement before taking a transaction.
    if (!(await this.outbox.hasDue(this.dataSource.manager, HANDOVER_GRACE_MS))) return 0;
    const moved = await this.dataSource.transaction(async (manager) => {
      const rows = await this.outbox.claim(manager, OUTBOX_BATCH, HANDOVER_GRACE_MS);
      if (!rows.length) return 0;
      // Not on a replica yet: the rows stay (released at commit) for a later poll.
      if (!(await this.replicated(await this.enqueue(rows)))) return 0;
      await this.outbox.remove(
        manager,
        rows.map((r) => r.id),
      );
      return rows.length;
    });
    this.vacuum.deleted(moved);
    return moved;
  }

  /**
   * One Redis round trip per queue under the rows' deterministic ids: a lone
   * job with add, several with addBulk (its pipeline costs more than the
   * job itself to build, and at a trickle every batch holds one job).
   */
  private async enqueue(rows: OutboxRow[]): Promise<QueueName[]> {
    const byQueue = new Map<QueueName, Parameters<Queue['addBulk']>[0]>();
    const staged: Parameters<FairStage['addAll']>[0][number][] = [];
    for (const row of rows) {
      const name = row.jobName as JobName;
      const fairShare = this.fair && name === JobName.RunTask && stagedRun(row.payload);
      if (fairShare) {
        staged.push(fairShare);
        continue;
      }
      const queue = JOB_QUEUE[name];
      const jobs = byQueue.get(queue) ?? [];
      jobs.push({ name, data: row.payload, opts: { ...JOB_OPTIONS[name], jobId: row.jobId } });
      byQueue.set(queue, jobs);
    }
    // Idle task-workers are woken by the stage's own script (the fair-work notice).
    await withTimeout(
      Promise.all([
        this.fairStage.addAll(staged),
        ...[...byQueue].map(([queue, jobs]) =>
          jobs.length === 1
            ? this.queues[queue].add(jobs[0].name, jobs[0].data, jobs[0].opts)
            : this.queues[queue].addBulk(jobs),
        ),
      ]),
      ENQUEUE_TIMEOUT_MS,
    );
    // The stage lives on the run queue's connection: its writes count for WAIT there.
    if (staged.length && !byQueue.has(QueueName.Tasks)) byQueue.set(QueueName.Tasks, []);
    return [...byQueue.keys()];
  }

  /**
   * Whether the jobs just added through these queues' connections are on a
   * replica too (WAIT counts the writes made on the same connection). True
   * without Sentinel, and while the primary has no replica connected: then
   * no failover could keep more, and waiting would only hold every row back.
   */
  private async replicated(queues: QueueName[]): Promise<boolean> {
    if (!this.waitForReplica) return true;
    // BullMQ's client forwards these commands to the ioredis connection that added the jobs.
    const clients = await Promise.all(
      queues.map(
        async (queue) => (await this.queues[queue].getBackend().client) as unknown as Replication,
      ),
    );
    if (!clients.length || !(await this.hasReplica(clients[0]))) return true;
    const acks = await Promise.all(clients.map((c) => c.wait(1, REPLICA_WAIT_MS)));
    return acks.every((replicas) => replicas >= 1);
  }

  /** Whether the primary has a replica connected (ROLE, asked at most once a REPLICA_COUNT_TTL_MS). */
  private async hasReplica(client: Replication): Promise<boolean> {
    if (Date.now() - this.replicasConnected.at > REPLICA_COUNT_TTL_MS) {
      const role = await client.role();
      const replicas = role[0] === 'master' && Array.isArray(role[2]) ? role[2].length : 0;
      this.replicasConnected = { count: replicas, at: Date.now() };
    }
    return this.replicasConnected.count > 0;
  }
}

/** The fair stage's view of a run job whose row says its account (rows from before it go to the queue). */
function stagedRun(payload: unknown) {
  const job = payload as RunTaskJob;
  if (!job.accountId || !job.level || !(job.level in LEVEL_WEIGHTS)) return undefined;
  return {
    task: { accountId: job.accountId, taskId: job.taskId, requestId: job.requestId },
    share: {
      weight: LEVEL_WEIGHTS[job.level as AccountLevel],
      maxConcurrentTasks: job.maxConcurrentTasks,
    },
  };
}

/** ROLE (a primary: `['master', offset, replicas]`) and WAIT (replicas that have this connection's writes). */
interface Replication {
  role(): Promise<unknown[]>;
  wait(replicas: number, timeoutMs: number): Promise<number>;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`enqueue timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
