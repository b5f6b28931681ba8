import type { SpendPeriod } from '@genhub/contracts';
import type { Currency } from '@genhub/money';

/**
 * The ledger's answer to a reservation: made, or refused (for the 402) with
 * what the account has, or with the calling key's limit and what it spent.
 */
export type ChatReservationOutcome =
  | { ok: true }
  | { ok: false; reason: 'balance'; availableUnits: number; currency: Currency }
  | { ok: false; reason: 'key_limit'; spentUnits: number; limitUnits: number; currency: Currency };

/** The key calling chat (issue 37): its reservation and usage record name it; its limit counts. */
export interface ChatKey {
  id: string;
  spendLimit: { amountUnits: number; period: SpendPeriod } | null;
}

export interface ChatReservation {
  accountId: string;
  /** The completion's uuid: the ledger key of its reservation and usage record. */
  completionId: string;
  amountUnits: number;
  /** The chat model id; category is always `chat`. */
  model: string;
  /** The calling key; absent: none. */
  apiKey?: ChatKey;
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
