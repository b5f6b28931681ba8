import type { Provider } from '@nestjs/common';
import { WEBHOOK_DELIVERY_PORT, WebhookDeliveryPort } from '@genhub/tasks-feature';
import { WebhookDeliveryRepository } from '@genhub/webhooks-data-access';

/** A run's terminal statement opens the task's webhook delivery, body included (decision 0105). */
export const webhookDelivery: Provider = {
  provide: WEBHOOK_DELIVERY_PORT,
  inject: [WebhookDeliveryRepository],
  useFactory: (deliveries: WebhookDeliveryRepository): WebhookDeliveryPort => ({
    deliveryCte: (request, when) => deliveries.deliveryCte(request, when),
  }),
};
