import type { ReservationOutcome } from './reservation.port';

export interface ChatReservation {
  accountId: string;
  /** The completion's uuid: the ledger key of its reservation and usage record. */
  completionId: string;
  amountUnits: number;
  /** The chat model id; category is always `chat`. */
  model: string;
}

/**
 * The ledger as chat completions use it: reserve an upper bound, then either
 * charge the actual cost (the rest returns to the balance) or release it all.
 * The gateway binds it to `LedgerRepository` (reserve / captureAmount / release).
 */
export interface ChatLedgerPort {
  reserve(reservation: ChatReservation): Promise<ReservationOutcome>;
  capture(input: { accountId: string; completionId: string; amountUnits: number }): Promise<void>;
  release(input: { accountId: string; completionId: string }): Promise<void>;
}

export const CHAT_LEDGER_PORT = Symbol('CHAT_LEDGER_PORT');
