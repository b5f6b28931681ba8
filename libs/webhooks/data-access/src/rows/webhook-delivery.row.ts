export type DeliveryStatus = 'pending' | 'delivered' | 'abandoned';

/** A row of `webhooks.deliveries` (the migration is the schema; this is its shape in code). */
export class StoredWebhookDelivery {
  taskId!: string;
  accountId!: string;
  url!: string;
  /** The JSON body every attempt sends (null for deliveries opened by a version 1 job). */
  body!: string | null;
  status!: DeliveryStatus;
  attempts!: number;
  createdAt!: Date;
  updatedAt!: Date;
  deliveredAt!: Date | null;
}
