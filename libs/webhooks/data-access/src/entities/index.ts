import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

export * from './webhook-attempt.entity';
export * from './webhook-delivery.entity';

export const WEBHOOKS_ENTITIES = [WebhookDeliveryEntity, WebhookAttemptEntity];
