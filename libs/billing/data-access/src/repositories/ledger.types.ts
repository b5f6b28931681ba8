import type { Currency } from '@genhub/money';
import type { StoredBillingRecord } from '../rows';

// What LedgerRepository's writes take and give back.

/** The category of chat completions' reservations, usage records and rollups. */
export const CHAT_CATEGORY = 'chat';

export interface ReserveInput {
  accountId: string;
  taskId: string;
  amountUnits: number;
  /** Model slug and category, kept on the reservation for the usage record and rollups. */
  model: string;
  category: string;
  /** The key that made it (kept on the reservation and its usage record); null: no key. */
  apiKeyId: string | null;
  /** Only for a key with a spend limit: the reservation counts against it in this period. */
  keyLimit?: KeyLimit;
}

/** A key's spend limit as a reservation checks it: its units and the current period's start. */
export interface KeyLimit {
  limitUnits: number;
  periodStart: Date;
}

/** Which task's reservation to settle; both ids must match (every query is scoped by account). */
export interface SettleInput {
  taskId: string;
  accountId: string;
}

/** `unchanged`: no open reservation for that task (unknown, or settled before). */
export type CaptureResult =
  { outcome: 'captured'; record: StoredBillingRecord } | { outcome: 'unchanged' };
export type ReleaseResult = { outcome: 'released'; amountUnits: number } | { outcome: 'unchanged' };

export type ReserveResult = { ok: true } | ReserveRefusal;

/** Why a reservation was refused: the balance (what it has left), or the key's limit (what it spent). */
export type ReserveRefusal =
  | { ok: false; reason: 'balance'; availableUnits: number; currency: Currency }
  | { ok: false; reason: 'key_limit'; spentUnits: number; limitUnits: number; currency: Currency };

export interface BalanceView {
  accountId: string;
  currency: Currency;
  /** Sum of the account's records. */
  balanceUnits: number;
  /** Sum of its open reservations. */
  reservedUnits: number;
}
