import { CreateWebhooksSchema1763700000400 } from './1763700000400-CreateWebhooksSchema';
import { DeliveryBody1763700000401 } from './1763700000401-DeliveryBody';
import { DeliveryEvent1763700000402 } from './1763700000402-DeliveryEvent';
import { DeliveryDueAt1763700000403 } from './1763700000403-DeliveryDueAt';

/** This domain's migrations, oldest first. Composed with the other domains' by the migrate command. */
export const WEBHOOKS_MIGRATIONS = [
  CreateWebhooksSchema1763700000400,
  DeliveryBody1763700000401,
  DeliveryEvent1763700000402,
  DeliveryDueAt1763700000403,
];
