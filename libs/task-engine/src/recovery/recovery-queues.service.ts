import { Job, Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { RedisConfig } from '@genhub/config';
import {
  bullConnection,
  checkQueuePrefix,
  closeQueue,
  FairStage,
  fairStageOn,
  type InstallationIdentity,
  JOB_OPTIONS,
  JOB_QUEUE,
  JobName,
  QueueName,
} from '@genhub/queue';
import { OutboxRelay } from '../outbox/outbox-relay.service';
import { OutboxRepository } from '@genhub/tasks-data-access';

/** States in which a job will still run by itself. */
const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** The platform's BullMQ queues, opened for one CLI command (closed by `close`). */
export class RecoveryQueues {
  readonly queues: Record<QueueName, Queue>;
  /** The fair stage, where a waiting run job is live too. */
  readonly fairStage: FairStage;

  /**
   * Opens the queues once the prefix is known to be this installation's
   * (claimed for it, or already its own; decision 0126): a recovery run with
   * another installation's QUEUE_PREFIX would hand our jobs to its workers.
   */
  static async open(redis: RedisConfig, installation: InstallationIdentity) {
    await checkQueuePrefix(redis, installation);
    return new RecoveryQueues(redis);
  }

  private constructor(private readonly redis: RedisConfig) {
    const open = (name: QueueName) =>
      new Queue(name, { connection: bullConnection(redis), prefix: redis.QUEUE_PREFIX });
    this.queues = {
      tasks: open(QueueName.Tasks),
      billing: open(QueueName.Billing),
      webhooks: open(QueueName.Webhooks),
    };
    this.fairStage = fairStageOn(this.queues.tasks, redis.QUEUE_PREFIX);
  }

  /** Whether a job with this id exists and will still run (a run job: or waits in the fair stage). */
  async isLive(queue: QueueName, jobId: string, taskId?: string): Promise<boolean> {
    if (queue === QueueName.Tasks && taskId && (await this.fairStage.holds(taskId))) return true;
    const job: Job | undefined = await this.queues[queue].getJob(jobId);
    return job ? LIVE_STATES.has(await job.getState()) : false;
  }

  /**
   * Makes sure a job runs: nothing when it is waiting (in the run queue or
   * the fair stage) or running; otherwise
   * (missing, or kept as completed/failed, which would make `add` a no-op)
   * it is added again under its deterministic id.
   */
  async ensure(
    name: JobName,
    data: unknown,
    jobId: string,
    taskId?: string,
  ): Promise<'live' | 'added'> {
    if (name === JobName.RunTask && taskId && (await this.fairStage.holds(taskId))) return 'live';
    const queue = this.queues[JOB_QUEUE[name]];
    const job: Job | undefined = await queue.getJob(jobId);
    if (job) {
      if (LIVE_STATES.has(await job.getState())) return 'live';
      await job.remove();
    }
    await queue.add(name, data, { ...JOB_OPTIONS[name], jobId });
    return 'added';
  }

  /**
   * Hands every outbox row to BullMQ now, as the relays of the running apps
   * would within OUTBOX_POLL_MS (the same code; safe alongside them).
   */
  async drainOutbox(dataSource: DataSource): Promise<number> {
    const relay = new OutboxRelay(
      dataSource,
      new OutboxRepository(),
      this.queues.tasks,
      this.queues.billing,
      this.queues.webhooks,
      this.redis,
      { isVerified: true }, // checked by `open`
      this.fairStage,
      // Rows that say their account go to the stage, whatever the apps' FAIR_SCHEDULING:
      // the runners empty it either way.
      { FAIR_SCHEDULING: true },
      // A one-off drain leaves the table's vacuum to the apps' relays.
      { deleted: () => undefined },
    );
    let moved = 0;
    for (let n = await relay.drainOnce(); n > 0; n = await relay.drainOnce()) moved += n;
    return moved;
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.queues).map(closeQueue));
  }
}
