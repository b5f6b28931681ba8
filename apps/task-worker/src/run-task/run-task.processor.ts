import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { TaskConfig } from '@genhub/config';
import { JobName, QueueName, RunTaskJob } from '@genhub/queue';
import { RunTaskUseCase } from '@genhub/tasks-feature';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Consumes `run-task` jobs. Concurrency (TASK_CONCURRENCY) and the lock
 * (TASK_LOCK_MS) come from configuration, so the worker starts only after they
 * are applied (autorun off). A job whose worker died (stalled) is moved back
 * to the queue by BullMQ and run again; the task's conditional writes make
 * sure it completes once.
 */
@Processor(QueueName.Tasks, { autorun: false, maxStalledCount: 5 })
export class RunTaskProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(RunTaskProcessor.name);

  constructor(
    private readonly runTask: RunTaskUseCase,
    private readonly config: TaskConfig,
  ) {
    super();
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
    void this.worker
      .run()
      .catch((e: Error) => this.logger.error(`task worker stopped: ${e.message}`));
  }

  async process(job: Job<RunTaskJob>): Promise<string> {
    if (job.name !== JobName.RunTask)
      throw new UnrecoverableError(`unexpected job ${job.name} on the tasks queue`);
    const data = job.data;
    if (data?.v !== 1 || typeof data.taskId !== 'string' || !UUID.test(data.taskId))
      throw new UnrecoverableError('malformed run-task payload');
    const outcome = await this.runTask.execute({ taskId: data.taskId });
    this.logger.log({ taskId: data.taskId, attempt: job.attemptsMade + 1, outcome }, 'task run');
    return outcome;
  }
}
