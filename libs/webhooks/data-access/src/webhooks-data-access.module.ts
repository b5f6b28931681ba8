import { Module } from '@nestjs/common';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';

@Module({
  providers: [WebhookDeliveryRepository],
  exports: [WebhookDeliveryRepository],
})
export class WebhooksDataAccessModule {}
