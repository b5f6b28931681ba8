import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WEBHOOKS_ENTITIES } from './entities';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';

@Module({
  imports: [TypeOrmModule.forFeature(WEBHOOKS_ENTITIES)],
  providers: [WebhookDeliveryRepository],
  exports: [WebhookDeliveryRepository],
})
export class WebhooksDataAccessModule {}
