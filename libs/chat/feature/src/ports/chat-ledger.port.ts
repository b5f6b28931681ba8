import type { Currency } from '@genhub/money';

/** The ledger's answer to a reservation: made, or refused with what the account has (for the 402). */
export type ChatReservationOutcome =
  { ok: true } | { ok: false; availableUnits: number; currency: Currency };

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
 * The gateway binds it to the ledger (`apps/gateway/src/chat/chat-ledger.provider.ts`); chat does not import billing.
 */
export interface ChatLedgerPort {
  reserve(reservation: ChatReservation): Promise<ChatReservationOutcome>;
  capture(input: { accountId: string; completionId: string; amountUnits: number }): Promise<void>;
  release(input: { accountId: string; completionId: string }): Promise<void>;
}

export const CHAT_LEDGER_PORT = Symbol('CHAT_LEDGER_PORT');
