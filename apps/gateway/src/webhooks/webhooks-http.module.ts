import { Module } from '@nestjs/common';
import { WebhookDeliveryLogModule } from '@genhub/webhooks-feature';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';

/**
 * `GET /api/v3/predictions/:task_id/webhook-deliveries`. Its ApiKeyGuard needs the
 * (global) AccountsFeatureModule in the gateway's AppModule.
 */
@Module({
  imports: [WebhookDeliveryLogModule],
  controllers: [WebhookDeliveriesController],
})
export class WebhooksHttpModule {}
