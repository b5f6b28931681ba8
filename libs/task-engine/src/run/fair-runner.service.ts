import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bullmq';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import type { Queue } from 'bullmq';
import { TaskConfig } from '@genhub/config';
import { jobLogContext, METRICS, MetricsService, withLogContext } from '@genhub/observability';
import {
  FairStage,
  PubSubChannel,
  PubSubService,
  QueueName,
  QueuePrefixOwnership,
  RedisClient,
  StagedTask,
  TakenTask,
} from '@genhub/queue';
import { RunTaskUseCase } from './run-task.use-case';

/**
 * How often an idle runner looks at the stage anyway (a wake notice lost
 * while Redis was away) and restages the tasks of takers that died.
 */
export const FAIR_POLL_MS = 1000;
/**
 * Times a task goes back to its line after its taker died before it is given
 * up (a task that kills its workers must not kill them all; BullMQ's
 * `maxStalledCount` on the run queue is the same five).
 */
export const MAX_RESTARTS = 5;
const EXPIRED_BATCH = 100;
/** A run that threw (its own database or Redis away) is restaged after this long. */
export const RETRY_AFTER_MS = 2000;
/**
 * Tasks are taken beyond the free slots for about this much run time and
 * kept in the process, so a slot that frees up starts its next task at once
 * (no round trip between two runs at saturation); with runs of a second or
 * more that is none, so the stage's choice stays exact where it matters.
 */
export const TAKE_AHEAD_MS = 30;
/**
 * How long a runner that took fewer tasks than it had room for stays
 * registered idle (adds to an empty stage hand it their tasks): three polls,
 * so a runner that died is passed over within seconds.
 */
export const IDLE_REGISTRATION_MS = 3 * FAIR_POLL_MS;
/** How long one wait for a handed task lasts before it is made again (seconds: BLPOP's unit). */
const HANDED_WAIT_S = 1;
/** Weight of each run in the mean run time (an exponential moving average). */
const RUN_TIME_WEIGHT = 0.1;

/**
 * Runs the tasks of the fair stage in this task-worker (decision 0133): on
 * each run's end, on a wake notice (the stage had nothing and now has) and
 * every second it takes as many tasks as the process has free slots (plus
 * TAKE_AHEAD_MS of runs), in the stage's fair order, and runs them here — no
 * queue job per task. Each taken task is leased: renewed every half
 * TASK_LOCK_MS while it runs, its end reported with the next take. A worker
 * that dies stops renewing; any runner then puts its tasks back at the front
 * of their lines (the run's conditional claim makes a second run harmless).
 * Runs of the BullMQ run queue (FAIR_SCHEDULING off, and jobs from before the
 * stage) share the slots: their processor reports them here. A take that
 * leaves slots free registers the runner idle, and it waits on its inbox:
 * the next add to an empty stage hands it the task itself, leased as a take
 * would (no wake notice and no take of its own: decision 0143); what the wait
 * misses, the next take returns.
 */
@Injectable()
export class FairRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FairRunner.name);
  private readonly slots: number;
  private readonly leaseMs: number;
  private readonly outcomes;
  private readonly runTimes;
  private readonly waits;
  /** Runs in this process: the stage's and the run queue's. */
  private active = 0;
  /** The stage's tasks this process holds leases on (taken ahead or running). */
  private readonly leased = new Map<string, TakenTask>();
  /** Taken ahead of a free slot, started as slots free up. */
  private ahead: TakenTask[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly startedAt = new Map<string, number>();
  private meanRunMs?: number;
  private finished: StagedTask[] = [];
  private taking?: Promise<void>;
  private takeAgain = false;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe?: Promise<(() => void) | undefined>;
  private stopped = true;
  /** This runner as a taker of the stage (its idle registration, its inbox). */
  readonly taker = { id: randomUUID(), idleMs: IDLE_REGISTRATION_MS };
  private waitingForHanded?: Promise<void>;
  /** The connection the wait holds (its own: BLPOP blocks it). */
  private blocking?: RedisClient;

  constructor(
    private readonly stage: FairStage,
    private readonly runTask: RunTaskUseCase,
    @InjectQueue(QueueName.Tasks) private readonly queue: Queue,
    private readonly pubsub: PubSubService,
    @Inject(QueuePrefixOwnership)
    private readonly ownership: Pick<QueuePrefixOwnership, 'isVerified'>,
    config: TaskConfig,
    metrics: MetricsService,
  ) {
    this.slots = config.TASK_CONCURRENCY;
    this.leaseMs = config.TASK_LOCK_MS;
    this.outcomes = metrics.counter(METRICS.taskOutcomes);
    this.runTimes = metrics.histogram(METRICS.queueRun);
    // The tasks queue's wait and run series, as the run queue's processor records them.
    this.waits = metrics.histogram(METRICS.queueWait).labels(QueueName.Tasks);
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    const every = (ms: number, fn: () => Promise<void>) => {
      const timer = setInterval(() => void fn(), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(FAIR_POLL_MS, () => this.tick());
    every(this.leaseMs / 2, () => this.renew());
    this.unsubscribe = this.pubsub
      .subscribe(PubSubChannel.FairWork, () => this.take())
      .catch((error: Error) => {
        this.logger.warn(`fair work notices unavailable (the poll takes): ${error.message}`);
        return undefined;
      });
    this.waitingForHanded = this.waitForHanded();
    this.take();
  }

  /** Starts what adds hand this runner, until it stops (what comes after is given back). */
  private async waitForHanded(): Promise<void> {
    try {
      while (!this.stopped) {
        try {
          this.blocking ??= await this.stage.blockingConnection();
          const task = await this.stage.nextHanded(this.taker.id, this.blocking, HANDED_WAIT_S);
          if (!task) continue;
          // Handed before it stopped, or before it lost its claim on the prefix: back in line.
          if (this.stopped || !this.ownership.isVerified) await this.stage.release([task]);
          else this.hold([task]);
        } catch (error) {
          if (this.stopped) break;
          // Its next take returns what was handed meanwhile.
          this.logger.warn(`fair stage inbox: ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, FAIR_POLL_MS));
        }
      }
    } finally {
      this.blocking?.disconnect();
    }
  }

  /** SIGTERM: no more takes; what was taken ahead goes back; the runs in flight end first. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.timers.forEach(clearInterval);
    (await this.unsubscribe)?.();
    await this.taking;
    // No longer idle: adds stop handing it tasks; what they handed and it has not started goes back.
    const handed = await this.stage.take(0, { taker: this.taker }).catch((error: Error) => {
      this.logger.warn(`fair stage idle registration: ${error.message}`);
      return [];
    });
    // The wait in flight ends within HANDED_WAIT_S; with Redis away, its connection is closed instead.
    const waited = await Promise.race([
      this.waitingForHanded?.then(() => true),
      new Promise((resolve) => setTimeout(resolve, HANDED_WAIT_S * 1000 + 500, false).unref()),
    ]);
    if (!waited) this.blocking?.disconnect();
    const unstarted = [...this.ahead.splice(0), ...handed];
    unstarted.forEach((task) => this.leased.delete(task.taskId));
    await this.stage
      .release(unstarted)
      .catch((error: Error) => this.logger.warn(`fair stage release: ${error.message}`));
    await Promise.all(this.running);
    if (this.finished.length)
      await this.stage
        .take(0, { finished: this.finished.splice(0), announceFinished: true })
        .catch((error: Error) => this.logger.warn(`fair stage end report: ${error.message}`));
  }

  /** A run queue job started in this process: one slot fewer. */
  started(job: Pick<StagedTask, 'taskId'>): void {
    this.active++;
    this.startedAt.set(job.taskId, performance.now());
  }

  /** A run queue job ended: its slot is free. */
  ended(job: Pick<StagedTask, 'taskId'>): void {
    this.runEnded(job.taskId);
    this.startNext();
    this.take();
  }

  /** Takes now, or once more after the take under way (never two at once). */
  take(): void {
    if (this.taking) {
      this.takeAgain = true;
      return;
    }
    this.taking = this.takeOnce().finally(() => {
      this.taking = undefined;
      if (this.takeAgain) {
        this.takeAgain = false;
        this.take();
      }
    });
  }

  /** Tasks to hold beyond the free slots: TAKE_AHEAD_MS of runs at the mean run time. */
  private get aheadWanted(): number {
    if (this.meanRunMs === undefined) return 0;
    const perSlot = TAKE_AHEAD_MS / Math.max(this.meanRunMs, 1);
    return Math.min(this.slots, Math.floor(this.slots * perSlot));
  }

  private async takeOnce(): Promise<void> {
    if (this.stopped || !this.ownership.isVerified) return;
    const wanted = Math.max(0, this.slots - this.active) + this.aheadWanted - this.ahead.length;
    const count = Math.max(0, wanted);
    if (!count && !this.finished.length) return;
    const finished = this.finished.splice(0);
    let taken: TakenTask[];
    try {
      // The runs' terminal notices go out from the take that reports their ends.
      taken = await this.stage.take(count, {
        waitingAhead: this.queue.toKey('wait'),
        finished,
        announceFinished: true,
        taker: this.taker,
      });
    } catch (error) {
      // Told again with the next call (the leases cover a lasting outage).
      this.finished.unshift(...finished);
      this.logger.warn(`fair stage take: ${(error as Error).message}`);
      return;
    }
    this.hold(taken);
  }

  /** Tasks leased to this runner (taken or handed): held until a slot starts them. */
  private hold(tasks: TakenTask[]): void {
    for (const task of tasks) this.leased.set(task.taskId, task);
    this.ahead.push(...tasks);
    this.startNext();
  }

  /** Starts taken tasks while slots are free. */
  private startNext(): void {
    while (this.active < this.slots && this.ahead.length && !this.stopped) {
      const task = this.ahead.shift() as TakenTask;
      if (task.stagedAt) this.waits.observe(Math.max(0, Date.now() - task.stagedAt) / 1000);
      this.active++;
      this.startedAt.set(task.taskId, performance.now());
      const run: Promise<void> = withLogContext(jobLogContext(task), () => this.run(task)).then(
        (ended) => {
          this.running.delete(run);
          this.leased.delete(task.taskId);
          if (ended) this.finished.push({ accountId: task.accountId, taskId: task.taskId });
          else void this.retryLater(task);
          this.runEnded(task.taskId);
          this.startNext();
          this.take();
        },
      );
      this.running.add(run);
    }
  }

  /**
   * One run, reported as the run queue's processor reports its jobs. False
   * when it threw instead of ending (its own statements failed: the database
   * away), to be run again.
   */
  private async run(task: TakenTask): Promise<boolean> {
    const started = performance.now();
    let result: 'completed' | 'failed' = 'completed';
    try {
      const {
        outcome,
        model = '',
        code,
      } = await this.runTask.execute({
        ...task,
        announcesEnd: true,
      });
      if (outcome === 'failed') result = 'failed';
      this.outcomes.inc({ model, outcome, code: code === undefined ? '' : String(code) });
      if (outcome === 'unknown-task')
        // QueuePrefixOwnership keeps another installation's workers off this prefix; say it loudly if not.
        this.logger.error(
          { outcome },
          `task ${task.taskId} is not in this installation's database: another installation shares QUEUE_PREFIX`,
        );
      else this.logger.log({ outcome, code }, 'task run');
      return true;
    } catch (error) {
      result = 'failed';
      this.logger.warn(`task run (again in ${RETRY_AFTER_MS} ms): ${(error as Error).message}`);
      return false;
    } finally {
      this.runTimes.labels(QueueName.Tasks, result).observe((performance.now() - started) / 1000);
    }
  }

  /**
   * A run that threw goes back in line after RETRY_AFTER_MS (its lease set to
   * lapse then; counted against its restarts). If Redis is away too, the
   * lease lapses on its own after TASK_LOCK_MS.
   */
  private async retryLater(task: TakenTask): Promise<void> {
    try {
      await this.stage.retryLater(task.taskId, this.leaseMs, RETRY_AFTER_MS);
    } catch (error) {
      this.logger.warn(`fair stage retry: ${(error as Error).message}`);
    }
  }

  private runEnded(taskId: string): void {
    this.active--;
    const started = this.startedAt.get(taskId);
    this.startedAt.delete(taskId);
    if (started === undefined) return;
    const ms = performance.now() - started;
    this.meanRunMs =
      this.meanRunMs === undefined ? ms : this.meanRunMs + RUN_TIME_WEIGHT * (ms - this.meanRunMs);
  }

  /** Renews the leases of what this process holds (every half TASK_LOCK_MS). */
  private async renew(): Promise<void> {
    if (this.stopped || !this.leased.size) return;
    try {
      await this.stage.renew([...this.leased.keys()]);
    } catch (error) {
      this.logger.warn(`fair stage lease renewal: ${(error as Error).message}`);
    }
  }

  /** Restages the tasks of takers that died, then takes (the poll). */
  private async tick(): Promise<void> {
    if (this.stopped || !this.ownership.isVerified) return;
    try {
      const { restaged, abandoned } = await this.stage.expired(
        this.leaseMs,
        EXPIRED_BATCH,
        MAX_RESTARTS,
      );
      if (restaged.length)
        this.logger.warn(`${restaged.length} task(s) back in line: their worker stopped renewing`);
      for (const task of abandoned)
        this.logger.error(
          `task ${task.taskId} given up after ${MAX_RESTARTS} restarts (the stuck-task sweep ends it)`,
        );
    } catch (error) {
      this.logger.warn(`fair stage expired leases: ${(error as Error).message}`);
    }
    this.take();
  }
}
