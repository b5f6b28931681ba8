import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, AuthenticatedAccount, CurrentAccount } from '@genhub/accounts-feature';
import { GetWebhookDeliveriesUseCase, WebhookDeliveriesView } from '@genhub/webhooks-feature';

/** The caller's view of one task's webhook delivery: status and every attempt. */
@Controller('api/v3/predictions')
@UseGuards(ApiKeyGuard)
export class WebhookDeliveriesController {
  constructor(private readonly getDeliveries: GetWebhookDeliveriesUseCase) {}

  @Get(':id/webhook-deliveries')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('id') taskId: string,
  ): Promise<{ code: 200; message: 'success'; data: WebhookDeliveriesView }> {
    const data = await this.getDeliveries.execute({ accountId: account.id, taskId });
    return { code: 200, message: 'success', data };
  }
}
