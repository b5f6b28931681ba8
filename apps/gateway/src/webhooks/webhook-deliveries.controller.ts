import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, AuthenticatedAccount, CurrentAccount } from '@genhub/accounts-feature';
import { type ApiEnvelopeDto, envelope, type WebhookDeliveryDto } from '@genhub/contracts/server';
import { GetWebhookDeliveriesUseCase } from '@genhub/webhooks-feature';

/** The caller's view of one task's webhook delivery: status and every attempt. */
@Controller('api/v3/predictions')
@UseGuards(ApiKeyGuard)
export class WebhookDeliveriesController {
  constructor(private readonly getDeliveries: GetWebhookDeliveriesUseCase) {}

  @Get(':task_id/webhook-deliveries')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('task_id') taskId: string,
  ): Promise<ApiEnvelopeDto<WebhookDeliveryDto>> {
    return envelope(await this.getDeliveries.execute({ accountId: account.id, taskId }));
  }
}
