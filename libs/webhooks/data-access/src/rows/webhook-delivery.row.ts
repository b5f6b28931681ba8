export type DeliveryStatus = 'pending' | 'delivered' | 'abandoned';

/**
 * Which of the task's events a delivery sends: `completed`, its end (every
 * task with a webhook has this one), or `start`, its first claim by a run (a
 * Replicate task whose events filter asks for it, decision 0137).
 */
export type DeliveryEvent = 'start' | 'completed';

/** A row of `webhooks.deliveries` (the migration is the schema; this is its shape in code). */
export class StoredWebhookDelivery {
  taskId!: string;
  event!: DeliveryEvent;
  accountId!: string;
  url!: string;
  /** The JSON body every attempt sends (null for deliveries opened by a version 1 job). */
  body!: string | null;
  status!: DeliveryStatus;
  attempts!: number;
  createdAt!: Date;
  updatedAt!: Date;
  deliveredAt!: Date | null;
  /** When the dispatcher may claim its next attempt; null: nothing to claim (decision 0141). */
  dueAt!: Date | null;
  /** When a dispatcher's claim of the attempt under way lapses. */
  claimedUntil!: Date | null;
  /** The request that created the task, for the log lines of its attempts. */
  requestId!: string | null;
}
