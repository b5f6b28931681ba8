import { Injectable } from '@nestjs/common';
import type { WebhookDeliveryDto } from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';
import { WebhookDeliveryRepository } from '@genhub/webhooks-data-access';

/** Times of the API: ISO 8601 in UTC without zone suffix. */
const apiTime = (d: Date): string => d.toISOString().replace(/Z$/, '');

/** The delivery log of one of the caller's tasks; any other id is 404 Not found. */
@Injectable()
export class GetWebhookDeliveriesUseCase {
  constructor(private readonly deliveries: WebhookDeliveryRepository) {}

  async execute(input: { accountId: string; taskId: string }): Promise<WebhookDeliveryDto> {
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
