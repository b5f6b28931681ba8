import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { WebhookConfig } from '@genhub/config';
import { attemptJobId, DeliverWebhookJob, JOB_OPTIONS, JobName, QueueName } from '@genhub/queue';
import {
  AttemptOutcome,
  DeliveryState,
  WebhookDeliveryRepository,
} from '@genhub/webhooks-data-access';
import { afterFailedAttempt, firstDelayLeft, outcomeOf } from '../../dispatch/retry-policy.util';
import { SendResult, WebhookSender } from '../../dispatch/webhook-sender.service';

export interface DeliverWebhookInput {
  job: DeliverWebhookJob;
  /** When the job was enqueued (ms since epoch): the first attempt waits for the first delay from it. */
  enqueuedAt: number;
}

/** One attempt made: what both delivery paths record and answer with. */
export interface AttemptMade {
  attempt: number;
  outcome: AttemptOutcome;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

/** The attempt `sent` made, numbered `attempt`, with the outcome the retry policy gave it. */
export function attemptMade(
  attempt: number,
  sent: Extract<SendResult, { kind: 'sent' }>,
  outcome: AttemptOutcome,
): AttemptMade {
  const { startedAt, durationMs, result } = sent;
  return {
    attempt,
    outcome,
    startedAt,
    durationMs,
    statusCode: result.statusCode,
    error: result.error,
  };
}

export type DeliverWebhookResult =
  /** Not now: the host is saturated or the first delay has not passed; put the job back for this long. */
  | { kind: 'deferred'; retryInMs: number }
  /** Nothing to do: the delivery is no longer pending, or this attempt was already made. */
  | { kind: 'skipped' }
  | (AttemptMade & {
      kind: 'attempted';
      /** Delay before the next attempt, when one follows. */
      nextAttemptInMs?: number;
    });

/** How long a job for a saturated host waits before it is tried again. */
export const SATURATED_HOST_RETRY_MS = 200;

/**
 * Makes one delivery attempt of a queue job (a `start` event, a replay, a
 * retry of those; a task's end is claimed from the table instead, decision
 * 0141): signed POST of the payload snapshot, the attempt recorded, and then
 * either the delivery is settled (delivered or abandoned) or the next attempt
 * is enqueued as its own delayed job, so a wait between attempts costs no
 * worker slot and a crash resumes at the right attempt.
 */
@Injectable()
export class DeliverWebhookUseCase {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly sender: WebhookSender,
    private readonly config: WebhookConfig,
    @InjectQueue(QueueName.Webhooks) private readonly queue: Queue,
  ) {}

  async execute({ job, enqueuedAt }: DeliverWebhookInput): Promise<DeliverWebhookResult> {
    const attempt = job.attempt ?? 1;
    const firstAttempt = job.firstAttempt ?? 1;
    const delays = this.config.WEBHOOK_RETRY_DELAYS_MS;
    const wait = firstDelayLeft(attempt, firstAttempt, delays, enqueuedAt);
    if (wait > 0) return { kind: 'deferred', retryInMs: wait };

    // The job carries ids: the URL and body are in the delivery the run's
    // terminal statement opened.
    const delivery = await this.openedDelivery(job);
    if (!delivery) return { kind: 'skipped' };
    const body = delivery.body;
    if (body === null) return { kind: 'skipped' };
    if (delivery.attempts >= attempt) {
      // Re-run after a crash between recording this attempt and enqueueing the next:
      // enqueue it again (same job id, so at most one exists).
      if (delivery.attempts === attempt) {
        const next = afterFailedAttempt(attempt, delays, firstAttempt);
        if (next.retry) await this.enqueue(job, next.nextAttempt, next.delayMs);
      }
      return { kind: 'skipped' };
    }
    const sent = await this.sender.send({
      taskId: job.taskId,
      event: job.event,
      accountId: job.accountId,
      url: delivery.url,
      body,
    });
    if (sent.kind === 'saturated') return { kind: 'deferred', retryInMs: SATURATED_HOST_RETRY_MS };

    const { outcome, retry: next } = outcomeOf(sent.result.ok, attempt, delays, firstAttempt);
    const made = attemptMade(attempt, sent, outcome);
    const recorded = await this.deliveries.recordAttempt({
      taskId: job.taskId,
      event: job.event ?? 'completed',
      accountId: job.accountId,
      ...made,
    });
    if (!recorded) return { kind: 'skipped' };
    // Enqueued only now, so the delay counts from the end of this attempt.
    if (next?.retry) await this.enqueue(job, next.nextAttempt, next.delayMs);
    return {
      kind: 'attempted',
      ...made,
      nextAttemptInMs: next?.retry ? next.delayMs : undefined,
    };
  }

  /** The job's delivery, as the statement that opened it (or a replay) left it, while pending. */
  private async openedDelivery(job: DeliverWebhookJob): Promise<DeliveryState | undefined> {
    const delivery = await this.deliveries.findDelivery(
      job.taskId,
      job.accountId,
      job.event ?? 'completed',
    );
    return delivery?.status === 'pending' ? delivery : undefined;
  }

  private async enqueue(job: DeliverWebhookJob, attempt: number, delayMs: number): Promise<void> {
    const data: DeliverWebhookJob = { ...job, attempt };
    await this.queue.add(JobName.DeliverWebhook, data, {
      ...JOB_OPTIONS[JobName.DeliverWebhook],
      jobId: attemptJobId(job.taskId, attempt, job.event),
      delay: delayMs,
    });
  }
}
