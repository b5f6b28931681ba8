import { Injectable } from '@nestjs/common';
import { WebhookConfig } from '@genhub/config';
import {
  DueDelivery,
  RecordAttemptInput,
  WebhookDeliveryRepository,
} from '@genhub/webhooks-data-access';
import { CoalescingBatch, WaitingCall } from '../../dispatch/coalescing-batch';
import { firstDelayLeft, outcomeOf } from '../../dispatch/retry-policy.util';
import { WebhookSender } from '../../dispatch/webhook-sender.service';
import {
  attemptMade,
  DeliverWebhookResult,
  SATURATED_HOST_RETRY_MS,
} from '../deliver-webhook/deliver-webhook.use-case';

/** Beyond the attempt's time limit, how long a claim outlives it before another dispatcher may retake it. */
export const CLAIM_MARGIN_MS = 10_000;
/**
 * How long a finished attempt's record may wait for the next claim to carry it
 * (one statement and one commit for both); then it is written alone.
 */
export const RECORD_WINDOW_MS = 20;
/** Records written by one statement at most. */
const RECORDS_PER_STATEMENT = 500;

/**
 * A task's end webhook, claimed from the table (decision 0141): the terminal
 * statement opened the delivery due at once; a dispatcher claims due
 * deliveries in batches for the length of an attempt, sends each, and
 * records the attempts of many deliveries in one statement, which also makes
 * a failed one due again after its retry delay. Finished attempts wait up to
 * RECORD_WINDOW_MS for the next claim, so that under load one statement and
 * one commit both record and claim. No queue job, no outbox row:
 * the row is the only state, so a dispatcher that dies mid-attempt leaves a
 * claim that lapses, and the next claim repeats the attempt (at least once,
 * as receivers expect).
 */
@Injectable()
export class DeliverDueWebhooksUseCase {
  private readonly records: WaitingCall<RecordAttemptInput, boolean>[] = [];
  private readonly claims: WaitingCall<number, DueDelivery[]>[] = [];
  private inStatement = false;
  private recordTimer?: NodeJS.Timeout;
  private readonly releases: CoalescingBatch<{ delivery: DueDelivery; inMs: number }, undefined>;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly sender: WebhookSender,
    private readonly config: WebhookConfig,
  ) {
    this.releases = new CoalescingBatch(async (inputs) => {
      // One statement per delay; deferrals of a batch nearly always share one.
      for (const inMs of new Set(inputs.map((i) => i.inMs)))
        await this.deliveries.releaseDue(
          inputs.filter((i) => i.inMs === inMs).map((i) => i.delivery),
          inMs,
        );
      return inputs.map(() => undefined);
    });
  }

  /**
   * Claims up to `limit` due deliveries for the length of an attempt, in the
   * next statement (at once when none runs), with the records waiting for it.
   */
  claim(limit: number): Promise<DueDelivery[]> {
    return new Promise((resolve, reject) => {
      this.claims.push({ input: limit, resolve, reject });
      if (!this.inStatement) void this.statement();
    });
  }

  /** When the earliest delivery falls due (or a claim lapses); undefined: none waits. */
  nextDue(): Promise<Date | undefined> {
    return this.deliveries.nextDue();
  }

  /** How many deliveries are due: waiting for a claim, or claimed (at most 100,000 counted). */
  dueCounts(): Promise<{ waiting: number; claimed: number }> {
    return this.deliveries.dueCounts(100_000);
  }

  /**
   * Makes a claimed delivery's next attempt and records it; answers as a queue
   * job's attempt does (`skipped`: someone else recorded this attempt first, a
   * replay or a lapsed claim retaken; `deferred`: given back, due again then).
   */
  async attempt(delivery: DueDelivery): Promise<DeliverWebhookResult> {
    const attempt = delivery.attempts + 1;
    const delays = this.config.WEBHOOK_RETRY_DELAYS_MS;
    const wait = firstDelayLeft(attempt, 1, delays, delivery.createdAt.getTime());
    if (wait > 0) return this.defer(delivery, wait);
    const sent = await this.sender.send(delivery);
    if (sent.kind === 'saturated') return this.defer(delivery, SATURATED_HOST_RETRY_MS);
    const { outcome, retry } = outcomeOf(sent.result.ok, attempt, delays);
    const made = attemptMade(attempt, sent, outcome);
    const nextAttemptInMs = retry.retry ? retry.delayMs : undefined;
    const recorded = await this.record({
      taskId: delivery.taskId,
      event: delivery.event,
      accountId: delivery.accountId,
      ...made,
      nextDueInMs: nextAttemptInMs,
    });
    if (!recorded) return { kind: 'skipped' };
    return { kind: 'attempted', ...made, nextAttemptInMs };
  }

  /** Records an attempt with the next claim, or alone after RECORD_WINDOW_MS. */
  private record(input: RecordAttemptInput): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.records.push({ input, resolve, reject });
      // A statement under way looks at what waits when it ends.
      if (this.inStatement) return;
      if (this.records.length >= RECORDS_PER_STATEMENT) void this.statement();
      else this.recordLater();
    });
  }

  private recordLater(): void {
    if (this.recordTimer) return;
    this.recordTimer = setTimeout(() => {
      this.recordTimer = undefined;
      if (!this.inStatement) void this.statement();
    }, RECORD_WINDOW_MS);
  }

  /** One statement: the waiting records and the first waiting claim; then the next if any waits. */
  private async statement(): Promise<void> {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    this.inStatement = true;
    const records = this.records.splice(0, RECORDS_PER_STATEMENT);
    const claim = this.claims.shift();
    try {
      const done = await this.deliveries.recordAndClaim(
        records.map((r) => r.input),
        claim?.input ?? 0,
        this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS,
      );
      records.forEach((r, i) => r.resolve(done.recorded[i]));
      claim?.resolve(done.claimed);
    } catch (error) {
      for (const r of records) r.reject(error);
      claim?.reject(error);
    } finally {
      this.inStatement = false;
      if (this.claims.length || this.records.length >= RECORDS_PER_STATEMENT) void this.statement();
      else if (this.records.length) this.recordLater();
    }
  }

  private async defer(delivery: DueDelivery, inMs: number): Promise<DeliverWebhookResult> {
    await this.releases.call({ delivery, inMs });
    return { kind: 'deferred', retryInMs: inMs };
  }
}
