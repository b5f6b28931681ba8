import { type Expression, type QueryCreator, type SqlBool, sql } from 'kysely';
import { statementsOf } from '@genhub/database';
import type { DB as WebhooksTables } from '../generated/schema.types';
import type { DeliveryEvent } from '../rows';

export type { WebhooksTables };

/** A statement on the webhooks tables alone (the step below, run on its own). */
export const webhooksStatements: QueryCreator<WebhooksTables> = statementsOf<WebhooksTables>();

/** What the step yields to the statement around it: `delivery_opened`, a row when it opened one. */
export interface DeliveryOpenedStep {
  delivery_opened: { task_id: string };
}

/** The delivery a finished task's webhook needs: where, and the exact bytes of every attempt. */
export interface DeliveryOpening {
  taskId: string;
  /** Which event it sends: `completed` (the task's end) or `start`. */
  event: DeliveryEvent;
  accountId: string;
  url: string;
  body: string;
  /**
   * The dispatcher claims its first attempt from the table this long after the
   * statement (decision 0141); null or unset: a queue job delivers it.
   */
  dueInMs?: number | null;
  /** The request that created the task, for the log lines of its attempts. */
  requestId?: string | null;
}

/**
 * Opens a task's webhook delivery (pending) with the body every attempt will
 * send, only when `when` holds (the terminal write won), as a step of the
 * statement that ends the task (decision 0105), or of the one that opens its
 * `start` event; `delivery_opened` has a row when it was opened (never twice
 * for one task and event).
 */
export function withDeliveryOpened(
  statement: QueryCreator<WebhooksTables>,
  input: DeliveryOpening,
  when: Expression<SqlBool>,
): QueryCreator<WebhooksTables & DeliveryOpenedStep> {
  return statement.with('delivery_opened', (db) =>
    db
      .insertInto('webhooks.deliveries')
      .columns(['task_id', 'event', 'account_id', 'url', 'body', 'due_at', 'request_id'])
      .expression(
        db
          .selectNoFrom((eb) => [
            eb.cast<string>(eb.val(input.taskId), 'uuid').as('task_id'),
            eb.cast<string>(eb.val(input.event), 'text').as('event'),
            eb.cast<string>(eb.val(input.accountId), 'uuid').as('account_id'),
            eb.cast<string>(eb.val(input.url), 'text').as('url'),
            eb.cast<string>(eb.val(input.body), 'text').as('body'),
            sql<Date | null>`now() + ${input.dueInMs}::integer * interval '1 millisecond'`.as(
              'due_at',
            ),
            eb.cast<string | null>(eb.val(input.requestId), 'text').as('request_id'),
          ])
          .where(when),
      )
      .onConflict((oc) => oc.columns(['task_id', 'event']).doNothing())
      .returning('task_id'),
  );
}
