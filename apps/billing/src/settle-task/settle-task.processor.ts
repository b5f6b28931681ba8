import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { SettleTaskUseCase } from '@genhub/billing-feature';
import { MetricsService } from '@genhub/observability';
import { JobName, QueueName } from '@genhub/queue';
import { parseSettleTaskJob } from './settle-task-job.util';

/**
 * Consumes the tasks' terminal events: capture (completed, or deleted after
 * processing started) or release (failed, or deleted while created). The
 * use-case settles each task once, so a redelivered job is harmless; a
 * database failure throws and BullMQ retries per JOB_OPTIONS.
 */
@Processor(QueueName.Billing, { concurrency: 20 })
export class SettleTaskProcessor extends WorkerHost {
  private readonly logger = new Logger(SettleTaskProcessor.name);
  private readonly settled;

  constructor(
    private readonly settle: SettleTaskUseCase,
    metrics: MetricsService,
  ) {
    super();
    this.settled = metrics.counter({
      name: 'billing_settlements_total',
      help: 'Settle events by result: captured, released, or unchanged (already settled or unknown)',
      labelNames: ['outcome'] as const,
    });
  }

  async process(job: Job): Promise<string> {
    if (job.name !== JobName.SettleTask) throw new Error(`billing: unexpected job ${job.name}`);
    const data = parseSettleTaskJob(job.data);
    const result = await this.settle.execute(data);
    this.settled.inc({ outcome: result });
    if (result === 'unchanged')
      this.logger.debug(`settle ${data.outcome} ${data.taskId}: nothing open (already settled)`);
    return result;
  }
}
