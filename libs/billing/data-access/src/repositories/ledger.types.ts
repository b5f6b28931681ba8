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

export type ReserveResult =
  { ok: true } | { ok: false; availableUnits: number; currency: Currency };

export interface BalanceView {
  accountId: string;
  currency: Currency;
  /** Sum of the account's records. */
  balanceUnits: number;
  /** Sum of its open reservations. */
  reservedUnits: number;
}
