import type { DeliveryEvent } from './webhook-delivery.row';

/** A row of `webhooks.attempts` (the migration is the schema; this is its shape in code). */
export class StoredWebhookAttempt {
  id!: string;
  taskId!: string;
  event!: DeliveryEvent;
  attempt!: number;
  startedAt!: Date;
  durationMs!: number;
  statusCode!: number | null;
  error!: string | null;
}
