import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { WebhookConfig } from '@genhub/config';
import { jobLogContext, METRICS, MetricsService, withLogContext } from '@genhub/observability';
import { PubSubChannel, PubSubService } from '@genhub/queue';
import type { DueDelivery } from '@genhub/webhooks-data-access';
import { DeliverDueWebhooksUseCase, DeliverWebhookResult } from '@genhub/webhooks-feature';
import { WebhookAttemptMetrics } from '../webhook-attempt.metrics';

/** How often the pump looks for due deliveries without a notice (lost notices, retry delays, lapsed claims). */
export const DUE_POLL_MS = 1000;
/** Deliveries claimed per statement at most. */
export const CLAIM_BATCH = 100;

/**
 * Keeps the dispatcher's attempts of claimed deliveries going (decision 0141).
 * A webhooks-due notice (the task-worker's, after a terminal statement opened
 * a delivery) claims at once; notices that arrive while a claim runs make one
 * more claim after it. At most WEBHOOK_CONCURRENCY attempts run at once. Every
 * DUE_POLL_MS it asks when the next delivery falls due, and claims then: that
 * covers notices lost with Redis, a failed attempt's retry delay, and claims
 * that lapsed with a dispatcher that died.
 */
@Injectable()
export class DueWebhooksPump implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DueWebhooksPump.name);
  private stopped = true;
  private claiming = false;
  private again = false;
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private pollTimer?: NodeJS.Timeout;
  private dueTimer?: { at: number; timer: NodeJS.Timeout };

  constructor(
    private readonly deliver: DeliverDueWebhooksUseCase,
    private readonly config: WebhookConfig,
    private readonly pubsub: PubSubService,
    private readonly observed: WebhookAttemptMetrics,
    metrics: MetricsService,
  ) {
    metrics.gauge(METRICS.webhookDeliveriesDue, async function collect() {
      const counts = await deliver.dueCounts().catch(() => undefined);
      if (!counts) return;
      this.set({ state: 'waiting' }, counts.waiting);
      this.set({ state: 'claimed' }, counts.claimed);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.stopped = false;
    // Without notices (Redis down at boot) the poll still finds every delivery.
    await this.pubsub
      .subscribe(PubSubChannel.WebhooksDue, () => this.pump())
      .catch((e: Error) => this.logger.warn(`no webhooks-due notices: ${e.message}`));
    this.pollTimer = setInterval(() => void this.poll(), DUE_POLL_MS);
    this.pump();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    if (this.dueTimer) clearTimeout(this.dueTimer.timer);
    // Attempts under way finish and are recorded; unclaimed deliveries wait for the next dispatcher.
    while (this.claiming || this.running.size)
      await Promise.allSettled([...this.running, new Promise((r) => setTimeout(r, 10))]);
  }

  /** Claims now, or once more after the claim under way. */
  pump(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    void this.claimWhileDue().finally(() => (this.claiming = false));
  }

  private async claimWhileDue(): Promise<void> {
    do {
      this.again = false;
      const room = Math.min(CLAIM_BATCH, this.config.WEBHOOK_CONCURRENCY - this.inFlight);
      // Full: the next attempt to end pumps again.
      if (room <= 0) return;
      let claimed: DueDelivery[];
      try {
        claimed = await this.deliver.claim(room);
      } catch (error) {
        this.logger.warn(`claiming due webhooks: ${(error as Error).message}`);
        return;
      }
      for (const delivery of claimed) this.start(delivery);
      if (claimed.length === room) this.again = true;
    } while (this.again && !this.stopped);
  }

  private start(delivery: DueDelivery): void {
    this.inFlight++;
    // Its lines carry the task's and its request's ids, as a queue job's do.
    const context = jobLogContext({ taskId: delivery.taskId, requestId: delivery.requestId });
    const run = withLogContext(context, () =>
      this.deliver.attempt(delivery).then((result) => this.observe(delivery, result)),
    )
      .catch((error: Error) =>
        // The claim lapses and the next one repeats the attempt.
        this.logger.error(`webhook attempt for ${delivery.taskId}: ${error.message}`),
      )
      .finally(() => {
        this.inFlight--;
        this.running.delete(run);
        if (this.inFlight === this.config.WEBHOOK_CONCURRENCY - 1) this.pump();
      });
    this.running.add(run);
  }

  private observe(delivery: DueDelivery, result: DeliverWebhookResult): void {
    this.observed.observe(result, delivery.createdAt.getTime());
    // Due again then: a timer here, the poll in every other dispatcher.
    if (result.kind === 'deferred') this.wakeIn(result.retryInMs);
    if (result.kind === 'attempted' && result.nextAttemptInMs !== undefined)
      this.wakeIn(result.nextAttemptInMs);
  }

  /** Asks when the next delivery falls due; claims now or sets a timer for it. */
  private async poll(): Promise<void> {
    if (this.stopped || this.claiming) return;
    let next: Date | undefined;
    try {
      next = await this.deliver.nextDue();
    } catch (error) {
      this.logger.warn(`looking for due webhooks: ${(error as Error).message}`);
      return;
    }
    if (next) this.wakeIn(next.getTime() - Date.now());
  }

  /** Claims in `ms` (now if due); one timer, for the earliest wake asked for within a poll. */
  private wakeIn(ms: number): void {
    if (ms <= 0) return this.pump();
    if (ms > DUE_POLL_MS) return; // the poll will see it
    const at = Date.now() + ms;
    if (this.dueTimer && this.dueTimer.at <= at) return;
    if (this.dueTimer) clearTimeout(this.dueTimer.timer);
    this.dueTimer = {
      at,
      timer: setTimeout(() => {
        this.dueTimer = undefined;
        this.pump();
      }, ms),
    };
  }
}
