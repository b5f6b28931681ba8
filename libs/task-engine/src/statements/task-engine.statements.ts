import type { QueryCreator, SqlBool } from 'kysely';
import type { EntityManager } from 'typeorm';
import { anyRowIn, runStatement, statementsOf, withSteps } from '@genhub/database';
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

/** A submit's one statement: what it wrote, or undefined when the balance did not cover the price. */
export interface Submitted {
  createdAt: Date;
  /** The run job's outbox row, for the relay. */
  outbox: OutboxRow;
}

/**
 * ONE statement (one round trip, no BEGIN/COMMIT of its own): the ledger
 * reserves the price; only if it did, the task is written `created` and its
 * run job's outbox row with it. The balance row stays locked for this one
 * statement only.
 */
export async function submitStatement(
  manager: EntityManager,
  reservation: ReserveInput,
  task: NewTask,
  runJob: OutboxItem,
): Promise<Submitted | undefined> {
  const reserved = withSteps(engine, withReservation, reservation);
  const created = withSteps(reserved, withTaskCreated, task, anyRowIn(reserved, 'reserved'));
  const announced = withSteps(created, withOutboxRow, runJob, anyRowIn(created, 'task_created'));
  const rows = await runStatement(
    manager,
    announced
      .selectFrom(['task_created', 'outbox_row'])
      .select(['task_created.created_at', 'outbox_row.id']),
    { prepared: true },
  );
  const row = rows[0];
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
  /** The task's webhook: its delivery opened and its job announced, in the same statement. */
  webhook?: { delivery: DeliveryOpening; job: OutboxItem };
}

/** A terminal write that won. */
export interface Ended {
  attempt: number;
  startedAt: Date | null;
  finishedAt: Date;
  /** Whether the reservation was still open (and is now settled). */
  settled: boolean;
  /** The webhook job's outbox row, for the relay. */
  outbox?: OutboxRow;
}

/**
 * ONE statement: the conditional terminal update and, only if it won, the
 * settlement of the reservation (once: only while it is open), the webhook
 * delivery with its body and the delivery job's outbox row. Whoever loses
 * the conditional update writes nothing (decision 0090).
 */
export async function endStatement(
  manager: EntityManager,
  ending: Ending,
): Promise<Ended | undefined> {
  const finished = withSteps(engine, withTaskFinished, {
    id: ending.id,
    from: ending.from,
    attempt: ending.attempt,
    ...ending.terminal,
  });
  const won = anyRowIn(finished, 'task_finished');
  const settled = withSteps(finished, withSettlement, ending.settlement, won);
  const { webhook } = ending;
  if (!webhook) {
    const rows = await runStatement(
      manager,
      settled
        .selectFrom('task_finished')
        .select((eb) => [
          'task_finished.attempt',
          'task_finished.started_at',
          'task_finished.finished_at',
          eb.exists(eb.selectFrom('settled').select('settled.account_id')).as('settled'),
        ]),
      { prepared: true },
    );
    return rows[0] && ended(rows[0]);
  }
  const opened = withSteps(settled, withDeliveryOpened, webhook.delivery, won);
  const announced = withSteps(opened, withOutboxRow, webhook.job, won);
  const rows = await runStatement(
    manager,
    announced
      .selectFrom(['task_finished', 'outbox_row'])
      .select((eb) => [
        'task_finished.attempt',
        'task_finished.started_at',
        'task_finished.finished_at',
        eb.exists(eb.selectFrom('settled').select('settled.account_id')).as('settled'),
        'outbox_row.id',
      ]),
    { prepared: true },
  );
  return rows[0] && { ...ended(rows[0]), outbox: { ...webhook.job, id: rows[0].id } };
}

function ended(row: {
  attempt: number;
  started_at: Date | null;
  finished_at: Date | null;
  settled: SqlBool;
}): Ended {
  return {
    attempt: row.attempt,
    startedAt: row.started_at,
    finishedAt: row.finished_at as Date,
    settled: row.settled === true,
  };
}
