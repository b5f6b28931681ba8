import type { Currency } from '@genhub/money';
import type { SqlFragment } from '@genhub/tasks-data-access';

export interface ReservationRequest {
  accountId: string;
  taskId: string;
  amountUnits: number;
  model: string;
  category: string;
}

export interface ReservationShortfall {
  availableUnits: number;
  currency: Currency;
}

/** A reservation's answer where one is made on its own (chat completions). */
export type ReservationOutcome = { ok: true } | ({ ok: false } & ReservationShortfall);

/**
 * Reserves a task's price in the statement that creates the task (one round
 * trip, the balance row locked for that statement only). The tasks domain
 * does not import billing: the task flow (`@genhub/task-flow`) binds this
 * port to the ledger, tests bind it to whatever they need.
 */
export interface ReservationPort {
  /**
   * Data-modifying CTEs, parameters numbered from $1, whose `yields` CTE has
   * one row when the price was reserved and none (writing nothing) when the
   * balance does not cover it.
   */
  reservationCte(request: ReservationRequest): SqlFragment;
  /** After a refusal: what the account has, for the 402 message. */
  shortfall(accountId: string): Promise<ReservationShortfall>;
  /**
   * Told each submit's outcome once it is known (after the commit, or at the
   * refusal), for the reservations metric; optional.
   */
  counted?(outcome: SubmitReservationOutcome): void;
}

export type SubmitReservationOutcome = 'reserved' | 'insufficient';

export const RESERVATION_PORT = Symbol('RESERVATION_PORT');
