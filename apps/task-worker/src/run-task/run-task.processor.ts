import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job } from 'bullmq';
import { TaskConfig } from '@genhub/config';
import {
  jobLogContext,
  METRICS,
  MetricsService,
  recordJobTimings,
  withLogContext,
} from '@genhub/observability';
import { JobName, parseJob, QueueName, RunTaskJob } from '@genhub/queue';
import { RunTaskUseCase } from '@genhub/tasks-feature';

/**
 * Consumes `run-task` jobs. Concurrency (TASK_CONCURRENCY) and the lock
 * (TASK_LOCK_MS) come from configuration, so the worker starts only after they
 * are applied (autorun off). A job whose worker died (stalled) is moved back
 * to the queue by BullMQ and run again; the task's conditional writes make
 * sure it completes once.
 */
@Processor(QueueName.Tasks, { autorun: false, maxStalledCount: 5 })
export class RunTaskProcessor
  extends WorkerHost
  implements OnApplicationBootstrap, OnModuleDestroy
{
  /** The jobs it handles: every job of its queue (jobsOf; checked by its spec). */
  static readonly JOBS = [JobName.RunTask] as const;
  private readonly logger = new Logger(RunTaskProcessor.name);
  private readonly outcomes;

  constructor(
    private readonly runTask: RunTaskUseCase,
    private readonly config: TaskConfig,
    private readonly metrics: MetricsService,
  ) {
    super();
    this.outcomes = metrics.counter(METRICS.taskOutcomes);
  }

  onApplicationBootstrap(): void {
    Object.assign(this.worker.opts, {
      lockDuration: this.config.TASK_LOCK_MS,
      lockRenewTime: this.config.TASK_LOCK_MS / 2,
      stalledInterval: this.config.TASK_LOCK_MS,
    });
    // The lock manager copied the construction-time lock settings: rebuild it (not yet started).
    (this.worker as unknown as { createLockManager(): void }).createLockManager();
    this.worker.concurrency = this.config.TASK_CONCURRENCY;
    recordJobTimings(this.worker, this.metrics);
    void this.worker
      .run()
      .catch((e: Error) => this.logger.error(`task worker stopped: ${e.message}`));
  }

  /**
   * SIGTERM: stop taking jobs and let the running ones finish (bounded by
   * SHUTDOWN_GRACE_MS) BEFORE the database pool and queues close in
   * onApplicationShutdown — Nest shuts the deepest modules down first.
   */
  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
  }

  process(job: Job<RunTaskJob>): Promise<string> {
    return withLogContext(jobLogContext(job.data ?? {}), () => this.run(job));
  }

  private async run(job: Job<RunTaskJob>): Promise<string> {
    const { data } = parseJob(job, RunTaskProcessor.JOBS);
    const {
      outcome,
      model = '',
      code,
    } = await this.runTask.execute({
      taskId: data.taskId,
      requestId: data.requestId,
    });
    this.outcomes.inc({ model, outcome, code: code === undefined ? '' : String(code) });
    this.logger.log({ attempt: job.attemptsMade + 1, outcome, code }, 'task run');
    return outcome;
  }
}
