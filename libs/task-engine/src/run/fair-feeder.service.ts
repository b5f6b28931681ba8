import { InjectQueue } from '@nestjs/bullmq';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Queue } from 'bullmq';
import { TaskConfig } from '@genhub/config';
import {
  FairStage,
  JOB_OPTIONS,
  JobName,
  jobIdFor,
  PubSubChannel,
  PubSubService,
  QueueName,
  QueuePrefixOwnership,
  RunTaskJob,
  StagedTask,
  TakenTask,
} from '@genhub/queue';

/**
 * How often an idle feeder looks at the stage anyway (a wake notice lost
 * while Redis was away) and re-sends what a dead worker took but never
 * handed over.
 */
export const FEED_POLL_MS = 1000;
/** A task taken this long ago and not confirmed in the run queue is re-sent (its taker died). */
export const UNCLAIMED_AFTER_MS = 5000;
const REAP_BATCH = 100;
/**
 * Jobs are added beyond the free slots for about this much run time, so a
 * slot that frees up finds its next job waiting (no round trip between two
 * runs at saturation); with runs of a second or more that is none, so the
 * stage's choice stays exact where it matters.
 */
export const FEED_AHEAD_MS = 30;
/** Weight of each run in the mean run time (an exponential moving average). */
const RUN_TIME_WEIGHT = 0.1;

/**
 * Moves tasks from the fair stage to the run queue as this task-worker's
 * slots free up (decision 0133): each run's end, a wake notice (the stage
 * had nothing and now has) and a 1 s poll take as many tasks as the process
 * has free slots (plus FEED_AHEAD_MS of runs), minus the jobs already
 * waiting in the run queue, so the queue holds next to nothing and the next
 * free slot goes to the task the stage chooses. The run's end and the hand-over confirmations ride on the
 * next take (one script call). A worker killed between take and add loses
 * nothing: another feeder re-sends its tasks after UNCLAIMED_AFTER_MS.
 */
@Injectable()
export class FairFeeder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(FairFeeder.name);
  private readonly slots: number;
  private active = 0;
  /** When each run in this process started (a job id's start), and the mean run time. */
  private readonly startedAt = new Map<string, number>();
  private meanRunMs?: number;
  private finished: StagedTask[] = [];
  private confirmed: TakenTask[] = [];
  private feeding?: Promise<void>;
  private feedAgain = false;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: Promise<(() => void) | undefined>;
  private stopped = true;

  constructor(
    private readonly stage: FairStage,
    @InjectQueue(QueueName.Tasks) private readonly queue: Queue,
    private readonly pubsub: PubSubService,
    @Inject(QueuePrefixOwnership)
    private readonly ownership: Pick<QueuePrefixOwnership, 'isVerified'>,
    config: TaskConfig,
  ) {
    this.slots = config.TASK_CONCURRENCY;
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.tick(), FEED_POLL_MS);
    this.timer.unref();
    this.unsubscribe = this.pubsub
      .subscribe(PubSubChannel.FairWork, () => this.feed())
      .catch((error: Error) => {
        this.logger.warn(`fair work notices unavailable (the poll feeds): ${error.message}`);
        return undefined;
      });
    this.feed();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    (await this.unsubscribe)?.();
    await this.feeding;
  }

  /** A run started in this process: one slot fewer to feed. */
  started(job: Pick<RunTaskJob, 'taskId'>): void {
    this.active++;
    this.startedAt.set(job.taskId, performance.now());
  }

  /** A run ended: its slot is free, and its account's cap has room again. */
  ended(job: Pick<RunTaskJob, 'taskId' | 'accountId'>): void {
    this.active--;
    const started = this.startedAt.get(job.taskId);
    this.startedAt.delete(job.taskId);
    if (started !== undefined) {
      const ms = performance.now() - started;
      this.meanRunMs =
        this.meanRunMs === undefined
          ? ms
          : this.meanRunMs + RUN_TIME_WEIGHT * (ms - this.meanRunMs);
    }
    if (job.accountId) this.finished.push({ accountId: job.accountId, taskId: job.taskId });
    this.feed();
  }

  /** Feeds now, or once more after the feed under way (never two at once). */
  feed(): void {
    if (this.feeding) {
      this.feedAgain = true;
      return;
    }
    this.feeding = this.feedOnce().finally(() => {
      this.feeding = undefined;
      if (this.feedAgain) {
        this.feedAgain = false;
        this.feed();
      }
    });
  }

  /**
   * Jobs to keep waiting beyond the free slots: FEED_AHEAD_MS of runs at the
   * mean run time (none until one has ended, at most one per slot).
   */
  private get ahead(): number {
    if (this.meanRunMs === undefined) return 0;
    const perSlot = FEED_AHEAD_MS / Math.max(this.meanRunMs, 1);
    return Math.min(this.slots, Math.floor(this.slots * perSlot));
  }

  private async feedOnce(): Promise<void> {
    if (this.stopped || !this.ownership.isVerified) return;
    const free = Math.max(0, this.slots - this.active) + this.ahead;
    if (!free && !this.finished.length && !this.confirmed.length) return;
    const finished = this.finished.splice(0);
    const handedOver = this.confirmed.splice(0);
    let taken: TakenTask[];
    try {
      taken = await this.stage.take(free, {
        waitingAhead: this.queue.toKey('wait'),
        finished,
        handedOver,
      });
    } catch (error) {
      // Told again with the next call (the lease and the reaper cover a lasting outage).
      this.finished.unshift(...finished);
      this.confirmed.unshift(...handedOver);
      this.logger.warn(`fair stage take: ${(error as Error).message}`);
      return;
    }
    await this.enqueue(taken);
  }

  /** Adds taken tasks to the run queue; confirmed with the next take. */
  private async enqueue(taken: TakenTask[]): Promise<void> {
    if (!taken.length) return;
    try {
      await this.queue.addBulk(
        taken.map((task) => {
          const data: RunTaskJob = {
            v: 1,
            taskId: task.taskId,
            requestId: task.requestId,
            accountId: task.accountId,
          };
          const jobId = jobIdFor(JobName.RunTask, task.taskId);
          return { name: JobName.RunTask, data, opts: { ...JOB_OPTIONS[JobName.RunTask], jobId } };
        }),
      );
      this.confirmed.push(...taken);
    } catch (error) {
      // Left unconfirmed: a feeder re-sends them after UNCLAIMED_AFTER_MS.
      this.logger.warn(`run queue add (re-sent later): ${(error as Error).message}`);
    }
  }

  private async tick(): Promise<void> {
    if (this.stopped || !this.ownership.isVerified) return;
    try {
      await this.enqueue(await this.stage.unclaimed(UNCLAIMED_AFTER_MS, REAP_BATCH));
    } catch (error) {
      this.logger.warn(`fair stage re-send: ${(error as Error).message}`);
    }
    this.feed();
  }
}
