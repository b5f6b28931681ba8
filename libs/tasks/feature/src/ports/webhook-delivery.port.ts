import type { SqlFragment } from '@genhub/tasks-data-access';

/** The delivery a finished task's webhook needs: where, and the exact bytes of every attempt. */
export interface WebhookDeliveryRequest {
  taskId: string;
  accountId: string;
  url: string;
  body: string;
}

/**
 * Opens a task's webhook delivery in the statement that ends its run, with
 * the body every attempt will send, so the delivery job carries ids only.
 * The tasks domain does not import webhooks: the task flow binds this port to
 * the webhooks data access; tests bind it to whatever they need.
 */
export interface WebhookDeliveryPort {
  /** Data-modifying CTEs, parameters from $1, written only when the SQL condition `when` holds. */
  deliveryCte(request: WebhookDeliveryRequest, when: string): SqlFragment;
}

export const WEBHOOK_DELIVERY_PORT = Symbol('WEBHOOK_DELIVERY_PORT');
