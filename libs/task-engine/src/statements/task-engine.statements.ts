import { type AliasedExpression, type QueryCreator, type SqlBool, sql } from 'kysely';
import type { EntityManager } from 'typeorm';
import { anyRowIn, statementsOf, StatementTemplate, withSteps } from '@genhub/database';
import {
  type BillingTables,
  type ReserveInput,
  type SettlementStep,
  withReservation,
  withSettlement,
} from '@genhub/billing-data-access';
import {
  type NewTask,
  type OutboxItem,
  type OutboxRow,
  type TaskStatus,
  type TasksTables,
  type TerminalFields,
  withOutboxRow,
  withTaskCreated,
  withTaskFinished,
} from '@genhub/tasks-data-access';
import {
  type DeliveryOpening,
  type WebhooksTables,
  withDeliveryOpened,
} from '@genhub/webhooks-data-access';

/** The tables the engine's statements span: each domain's steps are typed on its own. */
type EngineTables = TasksTables & BillingTables & WebhooksTables;
const engine: QueryCreator<EngineTables> = statementsOf<EngineTables>();

/** A submit's one statement: what it wrote, or undefined when the balance or the key's limit did not cover the price. */
export interface Submitted {
  createdAt: Date;
  /** The run job's outbox row, for the relay. */
  outbox: OutboxRow;
}

/**
 * ONE statement (one round trip, no BEGIN/COMMIT of its own): the ledger
 * reserves the price (and, for a key with a spend limit, counts it against
 * the key's period first); only if it did, the task is written `created` and
 * its run job's outbox row with it. The balance row stays locked for this one
 * statement only. Built once per shape (StatementTemplate: with or without a
 * key limit), run with each submit's values.
 */
function submitTemplate(limited: boolean) {
  return new StatementTemplate(
    (v: { reservation: ReserveInput; task: NewTask; runJob: OutboxItem }) => {
      const reserved = withSteps(engine, withReservation, v.reservation, limited);
      const created = withSteps(reserved, withTaskCreated, v.task, anyRowIn(reserved, 'reserved'));
      const announced = withSteps(
        created,
        withOutboxRow,
        v.runJob,
        anyRowIn(created, 'task_created'),
      );
      return announced
        .selectFrom(['task_created', 'outbox_row'])
        .select(['task_created.created_at', 'outbox_row.id']);
    },
  );
}

const SUBMIT = submitTemplate(false);
const SUBMIT_KEY_LIMITED = submitTemplate(true);

export async function submitStatement(
  manager: EntityManager,
  reservation: ReserveInput,
  task: NewTask,
  runJob: OutboxItem,
): Promise<Submitted | undefined> {
  const template = reservation.keyLimit ? SUBMIT_KEY_LIMITED : SUBMIT;
  const [row] = await template.run(manager, { reservation, task, runJob });
  return row ? { createdAt: row.created_at, outbox: { ...runJob, id: row.id } } : undefined;
}

/** Which write may end a task, and how. */
export interface Ending {
  id: string;
  /** The statuses it may end from (the lifecycle's rule). */
  from: readonly TaskStatus[];
  /** Only at this attempt (a later claim supersedes the run); null: whichever (the sweeper). */
  attempt: number | null;
  terminal: TerminalFields;
  /** The reservation's settlement, as the settlement rules decided it. */
  settlement: SettlementStep;
  /**
   * The task's webhook: its delivery opened in the same statement, due for the
   * dispatcher to claim (decision 0141).
   */
  webhook?: { delivery: DeliveryOpening };
}

/** A terminal write that won. */
export interface Ended {
  attempt: number;
  startedAt: Date | null;
  finishedAt: Date;
  /** Whether the reservation was still open (and is now settled). */
  settled: boolean;
  /** Whether it opened the task's webhook delivery (the dispatcher is to be woken). */
  deliveryOpened: boolean;
}

/**
 * ONE statement: the conditional terminal update and, only if it won, the
 * settlement of the reservation (once: only while it is open) and the webhook
 * delivery with its body, due for the dispatcher (decision 0141). Whoever loses
 * the conditional update writes nothing (decision 0090). One template per
 * shape: the terminal status, whether any attempt may end it, capture or
 * release, with or without a webhook.
 */
export async function endStatement(
  manager: EntityManager,
  ending: Ending,
): Promise<Ended | undefined> {
  const [row] = await endTemplate(ending).run(manager, ending);
  if (!row) return undefined;
  return {
    attempt: row.attempt,
    startedAt: row.started_at,
    finishedAt: row.finished_at as Date,
    settled: row.settled === true,
    deliveryOpened: row.delivery_opened === true,
  };
}

const endTemplates = new Map<string, ReturnType<typeof buildEndTemplate>>();

function endTemplate(ending: Ending) {
  const shape = {
    status: ending.terminal.status,
    from: ending.from,
    anyAttempt: ending.attempt === null,
    outcome: ending.settlement.outcome,
    webhook: ending.webhook !== undefined,
  };
  const key = JSON.stringify(shape);
  let template = endTemplates.get(key);
  if (!template) endTemplates.set(key, (template = buildEndTemplate(shape)));
  return template;
}

function buildEndTemplate(shape: {
  status: TerminalFields['status'];
  from: readonly TaskStatus[];
  anyAttempt: boolean;
  outcome: SettlementStep['outcome'];
  webhook: boolean;
}) {
  return new StatementTemplate((v: Ending) => {
    const finished = withSteps(engine, withTaskFinished, {
      id: v.id,
      from: shape.from,
      attempt: shape.anyAttempt ? null : v.attempt,
      ...({ status: shape.status, fields: v.terminal.fields } as TerminalFields),
    });
    const won = anyRowIn(finished, 'task_finished');
    const settled = withSteps(
      finished,
      withSettlement,
      // Field by field: the values are slots, which cannot be spread.
      { taskId: v.settlement.taskId, accountId: v.settlement.accountId, outcome: shape.outcome },
      won,
    );
    // Without a webhook the delivery is not in the statement at all.
    const webhook = v.webhook as NonNullable<Ending['webhook']>;
    const opened = shape.webhook
      ? withSteps(settled, withDeliveryOpened, webhook.delivery, won)
      : settled;
    return opened
      .selectFrom('task_finished')
      .select((eb) => [
        'task_finished.attempt',
        'task_finished.started_at',
        'task_finished.finished_at',
        eb.exists(eb.selectFrom('settled').select('settled.account_id')).as('settled'),
        (shape.webhook
          ? eb.exists(eb.selectFrom('delivery_opened' as never).select('task_id' as never))
          : eb.val(false)
        ).as('delivery_opened') as AliasedExpression<boolean, 'delivery_opened'>,
      ]);
  });
}

/** A task's `start` webhook (decision 0137): its delivery and the delivery job. */
export interface StartWebhook {
  delivery: DeliveryOpening;
  job: OutboxItem;
}

/**
 * ONE statement: the task's `start` delivery with its body and, only if it
 * was opened now, its job's outbox row. A delivery is one per task and
 * event, so a claim repeated after a worker died opens nothing and announces
 * nothing: the event is sent once, by whichever run wrote it first.
 */
const START = new StatementTemplate((v: StartWebhook) => {
  const opened = withSteps(engine, withDeliveryOpened, v.delivery, sql<SqlBool>`true`);
  const announced = withSteps(opened, withOutboxRow, v.job, anyRowIn(opened, 'delivery_opened'));
  return announced.selectFrom('outbox_row').select('outbox_row.id');
});

/** The start job's outbox row when this call opened the delivery; undefined when it existed. */
export async function startWebhookStatement(
  manager: EntityManager,
  webhook: StartWebhook,
): Promise<OutboxRow | undefined> {
  const [row] = await START.run(manager, webhook);
  return row ? { ...webhook.job, id: row.id } : undefined;
}
