import { Processor } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { SettleTaskUseCase } from '@genhub/billing-feature';
import { METRICS, MetricsService, ObservedWorkerHost } from '@genhub/observability';
import { JobName, parseJob, QueueName } from '@genhub/queue';

/**
 * Consumes the tasks' terminal events: capture (completed, or deleted after
 * processing started) or release (failed, or deleted while created). The
 * use-case settles each task once, so a redelivered job is harmless; a
 * database failure throws and BullMQ retries per JOB_OPTIONS.
 */
@Processor(QueueName.Billing, { concurrency: 20, autorun: false })
export class SettleTaskProcessor extends ObservedWorkerHost {
  /** The jobs it handles: every job of its queue (jobsOf; checked by its spec). */
  static readonly JOBS = [JobName.SettleTask] as const;
  private readonly logger = new Logger(SettleTaskProcessor.name);
  private readonly settled;

  constructor(
    private readonly settle: SettleTaskUseCase,
    metrics: MetricsService,
  ) {
    super(metrics);
    this.settled = metrics.counter(METRICS.settlements);
  }

  protected async handle(job: Job): Promise<string> {
    const { data } = parseJob(job, SettleTaskProcessor.JOBS);
    const result = await this.settle.execute(data);
    this.settled.inc({ outcome: result });
    this.logger.debug(
      result === 'unchanged'
        ? `settle ${data.outcome}: nothing open (already settled)`
        : `settle ${data.outcome}: ${result}`,
    );
    return result;
  }
}
