import { Processor } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { TaskConfig } from '@genhub/config';
import { METRICS, MetricsService, ObservedWorkerHost } from '@genhub/observability';
import { JobName, parseJob, QueueName, RunTaskJob } from '@genhub/queue';
import { FairRunner, RunTaskUseCase } from '@genhub/task-engine';

/**
 * Consumes `run-task` jobs: with FAIR_SCHEDULING off, the outbox hands tasks
 * to this queue (with it on, FairRunner takes them from the fair stage and
 * runs them itself; both share the process's slots). Concurrency (TASK_CONCURRENCY) and the lock
 * (TASK_LOCK_MS) come from configuration, applied before the worker starts
 * (ObservedWorkerHost starts it once the queue prefix is checked). A job whose worker died (stalled) is moved back
 * to the queue by BullMQ and run again; the task's conditional writes make
 * sure it completes once.
 */
@Processor(QueueName.Tasks, { autorun: false, maxStalledCount: 5 })
export class RunTaskProcessor extends ObservedWorkerHost {
  /** The jobs it handles: every job of its queue (jobsOf; checked by its spec). */
  static readonly JOBS = [JobName.RunTask] as const;
  private readonly logger = new Logger(RunTaskProcessor.name);
  private readonly outcomes;

  constructor(
    private readonly runTask: RunTaskUseCase,
    private readonly config: TaskConfig,
    private readonly runner: FairRunner,
    metrics: MetricsService,
  ) {
    super(metrics);
    this.outcomes = metrics.counter(METRICS.taskOutcomes);
  }

  protected override configureWorker(): void {
    Object.assign(this.worker.opts, {
      lockDuration: this.config.TASK_LOCK_MS,
      lockRenewTime: this.config.TASK_LOCK_MS / 2,
      stalledInterval: this.config.TASK_LOCK_MS,
    });
    // The lock manager copied the construction-time lock settings: rebuild it (not yet started).
    (this.worker as unknown as { createLockManager(): void }).createLockManager();
    this.worker.concurrency = this.config.TASK_CONCURRENCY;
  }

  protected async handle(job: Job<RunTaskJob>): Promise<string> {
    const { data } = parseJob(job, RunTaskProcessor.JOBS);
    // Each slot's start and end tell the fair runner what it may take from the stage.
    this.runner.started(data);
    try {
      return await this.run(job, data);
    } finally {
      this.runner.ended(data);
    }
  }

  private async run(job: Job<RunTaskJob>, data: RunTaskJob): Promise<string> {
    const {
      outcome,
      model = '',
      code,
    } = await this.runTask.execute({
      taskId: data.taskId,
      requestId: data.requestId,
    });
    this.outcomes.inc({ model, outcome, code: code === undefined ? '' : String(code) });
    if (outcome === 'unknown-task') {
      // Never dropped in silence: the job fails (kept with its data for a week), where the
      // queue dashboard shows it and the owner's `admin tasks:requeue` hands it back.
      const why = `task ${data.taskId} is not in this installation's database: another installation shares QUEUE_PREFIX`;
      this.logger.warn({ attempt: job.attemptsMade + 1, outcome }, why);
      throw new UnrecoverableError(why);
    }
    this.logger.log({ attempt: job.attemptsMade + 1, outcome, code }, 'task run');
    return outcome;
  }
}
