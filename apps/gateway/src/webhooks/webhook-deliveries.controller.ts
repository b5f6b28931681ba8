import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import {
  ApiKeyGuard,
  AuthenticatedAccount,
  CurrentAccount,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  type ApiEnvelopeDto,
  envelope,
  V3Route,
  WebhookDeliveriesResponseDto,
  type WebhookDeliveryDto,
} from '@genhub/contracts/server';
import { AppErrorCode } from '@genhub/errors';
import { GetWebhookDeliveriesUseCase } from '@genhub/webhooks-feature';

/** The caller's view of one task's webhook delivery: status and every attempt. */
@Controller('api/v3/predictions')
@UseGuards(ApiKeyGuard)
@RequiresScope('tasks:read')
export class WebhookDeliveriesController {
  constructor(private readonly getDeliveries: GetWebhookDeliveriesUseCase) {}

  @Get(':task_id/webhook-deliveries')
  @V3Route({
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'List the webhook deliveries of a task',
    description:
      "Every delivery attempt of the task's webhook: time, status code or error, duration.",
    ok: {
      description: 'The delivery log (404 when the task was submitted without a webhook).',
      type: WebhookDeliveriesResponseDto,
    },
    errors: [AppErrorCode.NotFound],
  })
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('task_id') taskId: string,
  ): Promise<ApiEnvelopeDto<WebhookDeliveryDto>> {
    return envelope(await this.getDeliveries.execute({ accountId: account.id, taskId }));
  }
}
