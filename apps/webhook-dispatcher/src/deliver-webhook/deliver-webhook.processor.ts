import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { WebhookConfig } from '@genhub/config';
import { MetricsService, ObservedWorkerHost } from '@genhub/observability';
import { JobName, parseJob, QueueName } from '@genhub/queue';
import { DeliverWebhookResult, DeliverWebhookUseCase } from '@genhub/webhooks-feature';
import { WebhookAttemptMetrics } from '../webhook-attempt.metrics';

/**
 * One job = one delivery attempt. Parses the payload, calls the use-case and
 * translates its answer: a deferred attempt (saturated host, first delay not
 * yet over) goes back to the delayed set without holding a worker slot.
 */
@Processor(QueueName.Webhooks, { autorun: false })
export class DeliverWebhookProcessor extends ObservedWorkerHost {
  /** The jobs it handles: every job of its queue (jobsOf; checked by its spec). */
  static readonly JOBS = [JobName.DeliverWebhook] as const;
  private readonly logger = new Logger(DeliverWebhookProcessor.name);

  constructor(
    private readonly deliver: DeliverWebhookUseCase,
    private readonly config: WebhookConfig,
    private readonly observed: WebhookAttemptMetrics,
    metrics: MetricsService,
  ) {
    super(metrics);
  }

  /** The decorator's options are static; the configured concurrency is applied here. */
  protected override configureWorker(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  protected async handle(job: Job, token?: string): Promise<DeliverWebhookResult> {
    const { data } = parseJob(job, DeliverWebhookProcessor.JOBS);

    const result = await this.deliver.execute({ job: data, enqueuedAt: job.timestamp });
    this.observed.observe(result, job.timestamp);
    if (result.kind === 'deferred') {
      await job.moveToDelayed(Date.now() + result.retryInMs, token);
      throw new DelayedError();
    }
    return result;
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.error(`deliver-webhook job ${job?.id} failed: ${error.message}`);
  }
}
