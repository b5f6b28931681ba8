import { sql, type Expression, type QueryCreator, type SqlBool } from 'kysely';
import type { DB as BillingTables } from '../generated/schema.types';
import type { KeyLimit, ReserveInput, SettleInput } from '../repositories/ledger.types';

export type { BillingTables };

/**
 * The ledger's writes as steps (data-modifying CTEs) of a statement, typed
 * on the billing tables. The ledger runs them on their own; the task engine
 * composes them into the statement that creates or ends a task, so a task's
 * money moves in that task's one statement (decision 0132).
 */

/**
 * Reserves a task's price: `reserved` has one row when the balance covered
 * it (and it is now reserved), none (and nothing written) otherwise.
 * `limited` (fixed per template, as the statement's shape): the reservation
 * also counts against its key's spend limit (`input.keyLimit`), see
 * withKeyLimitedReservation. Without it the statement is the plain one.
 */
export function withReservation(
  statement: QueryCreator<BillingTables>,
  input: ReserveInput,
  limited = input.keyLimit !== undefined,
): QueryCreator<BillingTables & ReservedStep> {
  if (limited)
    return withKeyLimitedReservation(statement, input) as unknown as QueryCreator<
      BillingTables & ReservedStep
    >;
  return statement
    .with('reserved_balance', (db) =>
      db
        .updateTable('billing.balances')
        .set((eb) => ({
          reserved_units: eb('reserved_units', '+', input.amountUnits),
          updated_at: sql`now()`,
        }))
        .where('account_id', '=', input.accountId)
        .where((eb) =>
          eb(eb('balance_units', '-', eb.ref('reserved_units')), '>=', input.amountUnits),
        )
        .returning('account_id'),
    )
    .with('reserved', (db) => insertReservation(db, input, null));
}

/**
 * The reservation row, from `reserved_balance`'s row (none: nothing inserted);
 * `keyPeriodStart` when it counted against its key's limit in that period.
 */
function insertReservation(
  db: QueryCreator<BillingTables & { reserved_balance: { account_id: string } }>,
  input: ReserveInput,
  keyPeriodStart: Date | null,
) {
  return db
    .insertInto('billing.reservations')
    .columns([
      'task_id',
      'account_id',
      'amount_units',
      'model',
      'category',
      'api_key_id',
      'key_period_start',
    ])
    .expression((eb) =>
      eb
        .selectFrom('reserved_balance')
        .select([
          eb.cast<string>(eb.val(input.taskId), 'uuid').as('task_id'),
          'reserved_balance.account_id',
          eb.cast<number>(eb.val(input.amountUnits), 'int8').as('amount_units'),
          eb.cast<string>(eb.val(input.model), 'text').as('model'),
          eb.cast<string>(eb.val(input.category), 'text').as('category'),
          eb.cast<string | null>(eb.val(input.apiKeyId), 'uuid').as('api_key_id'),
          eb.cast<Date | null>(eb.val(keyPeriodStart), 'timestamptz').as('key_period_start'),
        ]),
    )
    .returning('task_id');
}

/**
 * The reservation of a key with a spend limit, in lock order balance row →
 * key_spend row (settlements take them in the same order, so never a
 * deadlock): `locked_balance` locks the account's balance row when it covers
 * the price; `key_spent` adds the price to the key's row of the period only
 * if it stays within the limit (inserted on the period's first reservation);
 * the balance and the reservation follow only from `key_spent`'s row. Both
 * checks see the latest committed values (a row lock re-reads the row), so
 * concurrent submits cannot pass either together (decision 0135).
 */
function withKeyLimitedReservation(statement: QueryCreator<BillingTables>, input: ReserveInput) {
  const limit = input.keyLimit as KeyLimit;
  return statement
    .with('locked_balance', (db) =>
      db
        .selectFrom('billing.balances')
        .select('account_id')
        .where('account_id', '=', input.accountId)
        .where((eb) =>
          eb(eb('balance_units', '-', eb.ref('reserved_units')), '>=', input.amountUnits),
        )
        .forUpdate(),
    )
    .with('key_spent', (db) =>
      db
        .insertInto('billing.key_spend')
        .columns(['key_id', 'period_start', 'used_units'])
        .expression((eb) =>
          eb
            .selectFrom('locked_balance')
            .select([
              eb.cast<string>(eb.val(input.apiKeyId), 'uuid').as('key_id'),
              eb.cast<Date>(eb.val(limit.periodStart), 'timestamptz').as('period_start'),
              eb.cast<number>(eb.val(input.amountUnits), 'int8').as('used_units'),
            ])
            .where(
              eb.cast<number>(eb.val(input.amountUnits), 'int8'),
              '<=',
              eb.cast<number>(eb.val(limit.limitUnits), 'int8'),
            ),
        )
        .onConflict((oc) =>
          oc
            .columns(['key_id', 'period_start'])
            .doUpdateSet((eb) => ({
              used_units: eb('billing.key_spend.used_units', '+', eb.ref('excluded.used_units')),
            }))
            .where((eb) =>
              eb(
                eb('billing.key_spend.used_units', '+', eb.ref('excluded.used_units')),
                '<=',
                eb.cast<number>(eb.val(limit.limitUnits), 'int8'),
              ),
            ),
        )
        .returning('key_id'),
    )
    .with('reserved_balance', (db) =>
      db
        .updateTable('billing.balances')
        .set((eb) => ({
          reserved_units: eb('reserved_units', '+', input.amountUnits),
          updated_at: sql`now()`,
        }))
        .where('account_id', '=', input.accountId)
        .where((eb) => eb.exists(eb.selectFrom('key_spent').select('key_spent.key_id')))
        .returning('account_id'),
    )
    .with('reserved', (db) => insertReservation(db, input, limit.periodStart));
}

export interface SettlementStep extends SettleInput {
  outcome: 'capture' | 'release';
  /** A capture's charge, capped at the reservation; absent or null: all of it. */
  chargeUnits?: number | null;
}

/**
 * Captures or releases the task's reservation, only while it is open and
 * only when `when` holds (the caller's terminal write won): `settled` has a
 * row when it settled. A capture charges `chargeUnits` and returns the rest;
 * the balance, the usage record and the daily rollup follow from `settled`
 * (`settle_record` holds the record).
 */
export function withSettlement(
  statement: QueryCreator<BillingTables>,
  input: SettlementStep,
  when: Expression<SqlBool>,
): QueryCreator<BillingTables & SettledStep> {
  return input.outcome === 'release'
    ? withRelease(statement, input, when)
    : withCapture(statement, input, when);
}

/** What a reservation step yields: `reserved`, a row when the price was reserved. */
export interface ReservedStep {
  reserved_balance: { account_id: string };
  reserved: { task_id: string };
}

/** What a settlement step yields to the statement around it: `settled`, a row when it settled. */
export interface SettledStep {
  settled: { account_id: string };
}

export function withRelease(
  statement: QueryCreator<BillingTables>,
  input: SettleInput,
  when: Expression<SqlBool>,
) {
  return statement
    .with('settled', (db) =>
      db
        .updateTable('billing.reservations')
        .set({ state: 'released', settled_at: sql`now()` })
        .where('task_id', '=', input.taskId)
        .where('account_id', '=', input.accountId)
        .where('state', '=', 'open')
        .where(when)
        .returning(['account_id', 'amount_units', 'api_key_id', 'key_period_start']),
    )
    .with('settle_balance', (db) =>
      db
        .updateTable('billing.balances as bal')
        .from('settled as r')
        .set((eb) => ({
          reserved_units: eb('bal.reserved_units', '-', eb.ref('r.amount_units')),
          updated_at: sql`now()`,
        }))
        .whereRef('bal.account_id', '=', 'r.account_id')
        .returning([
          'r.amount_units',
          'r.api_key_id',
          'r.key_period_start',
          'r.amount_units as key_room_units',
        ]),
    )
    .with('settle_key', giveKeyRoomBack);
}

/**
 * A settled reservation that counted against its key's limit gives back what
 * was not charged (all of a release, amount − charge of a capture). It reads
 * `settle_balance`, so the balance row is locked first (the reservation's
 * lock order); never below zero (a counter re-initialised by a limit change).
 */
function giveKeyRoomBack(
  db: QueryCreator<
    BillingTables & {
      settle_balance: {
        api_key_id: string | null;
        key_period_start: Date | null;
        key_room_units: number;
      };
    }
  >,
) {
  return db
    .updateTable('billing.key_spend as ks')
    .from('settle_balance as s')
    .set((eb) => ({
      used_units: eb.fn<number>('greatest', [
        eb('ks.used_units', '-', eb.ref('s.key_room_units')),
        eb.lit(0),
      ]),
    }))
    .whereRef('ks.key_id', '=', 's.api_key_id')
    .whereRef('ks.period_start', '=', 's.key_period_start')
    .where('s.key_period_start', 'is not', null)
    .returning('ks.key_id');
}

export function withCapture(
  statement: QueryCreator<BillingTables>,
  input: SettleInput & { chargeUnits?: number | null },
  when: Expression<SqlBool>,
) {
  return statement
    .with('settled', (db) =>
      db
        .updateTable('billing.reservations')
        .set({ state: 'captured', settled_at: sql`now()` })
        .where('task_id', '=', input.taskId)
        .where('account_id', '=', input.accountId)
        .where('state', '=', 'open')
        .where(when)
        .returning((eb) => [
          'task_id',
          'account_id',
          'amount_units',
          'model',
          'category',
          'api_key_id',
          'key_period_start',
          eb
            .fn<number>('least', [
              eb.fn.coalesce(
                eb.cast<number | null>(eb.val(input.chargeUnits ?? null), 'int8'),
                eb.ref('amount_units'),
              ),
              eb.ref('amount_units'),
            ])
            .as('charged_units'),
        ]),
    )
    .with('settle_balance', (db) =>
      db
        .updateTable('billing.balances as bal')
        .from('settled as r')
        .set((eb) => ({
          balance_units: eb('bal.balance_units', '-', eb.ref('r.charged_units')),
          reserved_units: eb('bal.reserved_units', '-', eb.ref('r.amount_units')),
          record_count: eb('bal.record_count', '+', 1),
          usage_count: eb('bal.usage_count', '+', 1),
          updated_at: sql`now()`,
        }))
        .whereRef('bal.account_id', '=', 'r.account_id')
        .returning((eb) => [
          'bal.balance_units',
          'bal.record_count',
          'bal.usage_count',
          'r.api_key_id',
          'r.key_period_start',
          eb(eb.ref('r.amount_units'), '-', eb.ref('r.charged_units')).as('key_room_units'),
        ]),
    )
    .with('settle_key', giveKeyRoomBack)
    .with('settle_record', (db) =>
      db
        .insertInto('billing.records')
        .columns([
          'account_id',
          'seq',
          'type_seq',
          'type',
          'amount_units',
          'balance_after_units',
          'model',
          'category',
          'task_id',
          'api_key_id',
        ])
        .expression((eb) =>
          eb
            .selectFrom(['settled as r', 'settle_balance as b'])
            .select((s) => [
              'r.account_id',
              'b.record_count',
              'b.usage_count',
              sql<string>`'usage'`.as('type'),
              s.neg(s.ref('r.charged_units')).as('amount_units'),
              'b.balance_units',
              'r.model',
              'r.category',
              'r.task_id',
              'r.api_key_id',
            ]),
        )
        .returningAll(),
    )
    .with('settle_rollup', (db) =>
      db
        .insertInto('billing.usage_daily')
        .columns(['account_id', 'day', 'category', 'tasks', 'cost_units'])
        .expression((eb) =>
          eb
            .selectFrom('settle_record')
            .select([
              'account_id',
              sql<string>`(created_at AT TIME ZONE 'UTC')::date`.as('day'),
              'category',
              sql<number>`1`.as('tasks'),
              sql<number>`-amount_units`.as('cost_units'),
            ]),
        )
        .onConflict((oc) =>
          oc.columns(['account_id', 'day', 'category']).doUpdateSet((eb) => ({
            tasks: eb('billing.usage_daily.tasks', '+', 1),
            cost_units: eb('billing.usage_daily.cost_units', '+', eb.ref('excluded.cost_units')),
          })),
        ),
    );
}
