import { Injectable, Logger } from '@nestjs/common';
import { METRICS, MetricsService } from '@genhub/observability';
import type { DeliverWebhookResult } from '@genhub/webhooks-feature';

/**
 * What the dispatcher counts of an attempt, the same for a queue job and a
 * claimed delivery: its outcome, a first attempt's wait since the task ended,
 * and the attempts put back for a saturated host.
 */
@Injectable()
export class WebhookAttemptMetrics {
  private readonly logger = new Logger(WebhookAttemptMetrics.name);
  private readonly attempts;
  private readonly latency;
  private readonly deferrals;

  constructor(metrics: MetricsService) {
    this.attempts = metrics.counter(METRICS.webhookAttempts);
    this.latency = metrics.histogram(METRICS.webhookLatency);
    this.deferrals = metrics.counter(METRICS.webhookDeferrals);
  }

  /** `since`: when the delivery was opened or its job enqueued (ms since epoch). */
  observe(result: DeliverWebhookResult, since: number): void {
    if (result.kind === 'deferred') this.deferrals.inc();
    if (result.kind !== 'attempted') return;
    this.attempts.inc({ outcome: result.outcome });
    this.logger.debug(`webhook attempt ${result.attempt}: ${result.outcome}`);
    if (result.attempt === 1)
      this.latency.observe(Math.max(0, result.startedAt.getTime() - since) / 1000);
  }
}
