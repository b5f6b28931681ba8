import { Injectable } from '@nestjs/common';
import { AppErrorCode, AppException } from '@genhub/errors';
import { DeliveryStatus, WebhookDeliveryRepository } from '@genhub/webhooks-data-access';

export interface WebhookAttemptView {
  attempt: number;
  /** When the attempt started (ISO 8601, UTC, without zone suffix like every time of the API). */
  started_at: string;
  /** The receiver's HTTP status, null when it never answered. */
  status_code: number | null;
  /** Why the attempt failed without an answer (time-out, refused, DNS…), else null. */
  error: string | null;
  duration_ms: number;
}

export interface WebhookDeliveriesView {
  task_id: string;
  url: string;
  status: DeliveryStatus;
  created_at: string;
  delivered_at: string | null;
  attempts: WebhookAttemptView[];
}

const apiTime = (d: Date): string => d.toISOString().replace(/Z$/, '');

/** The delivery log of one of the caller's tasks; any other id is 404 Not found. */
@Injectable()
export class GetWebhookDeliveriesUseCase {
  constructor(private readonly deliveries: WebhookDeliveryRepository) {}

  async execute(input: { accountId: string; taskId: string }): Promise<WebhookDeliveriesView> {
    const log = await this.deliveries.findOwnedDeliveryLog(input.accountId, input.taskId);
    if (!log) throw new AppException(AppErrorCode.NotFound);
    return {
      task_id: log.taskId,
      url: log.url,
      status: log.status,
      created_at: apiTime(log.createdAt),
      delivered_at: log.deliveredAt ? apiTime(log.deliveredAt) : null,
      attempts: log.attemptLog.map((a) => ({
        attempt: a.attempt,
        started_at: apiTime(a.startedAt),
        status_code: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
      })),
    };
  }
}
