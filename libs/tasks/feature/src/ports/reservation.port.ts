import type { EntityManager } from 'typeorm';
import type { Currency } from '@genhub/money';

export interface ReservationRequest {
  accountId: string;
  taskId: string;
  amountUnits: number;
  model: string;
  category: string;
}

export type ReservationOutcome =
  { ok: true } | { ok: false; availableUnits: number; currency: Currency };

/**
 * Reserves a task's price inside the submit transaction. The tasks domain does
 * not import billing: the gateway binds this port to the ledger
 * (`LedgerRepository.reserve`), tests bind it to whatever they need.
 */
export interface ReservationPort {
  reserve(manager: EntityManager, request: ReservationRequest): Promise<ReservationOutcome>;
}

export const RESERVATION_PORT = Symbol('RESERVATION_PORT');
