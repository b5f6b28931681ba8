export type DeliveryStatus = 'pending' | 'delivered' | 'abandoned';

/** A row of `webhooks.deliveries` (the migration is the schema; this is its shape in code). */
export class WebhookDeliveryEntity {
  taskId!: string;
  accountId!: string;
  url!: string;
  status!: DeliveryStatus;
  attempts!: number;
  createdAt!: Date;
  updatedAt!: Date;
  deliveredAt!: Date | null;
}
