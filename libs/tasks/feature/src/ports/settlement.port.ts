import type { SqlFragment } from '@genhub/tasks-data-access';

export interface SettlementRequest {
  taskId: string;
  accountId: string;
  /** completed → capture, failed → release. */
  outcome: 'capture' | 'release';
}

/**
 * Settles a task's reservation in the statement that ends its run, so a task
 * costs no second transaction, no settle job and no hop through the billing
 * app. The tasks domain does not import billing: the task-worker binds this
 * port to the ledger (`LedgerRepository.settlementCte`), tests bind it to
 * whatever they need. Deletions still settle through SettleTask jobs.
 */
export interface SettlementPort {
  /**
   * Data-modifying CTEs, parameters numbered from $1, that settle the
   * reservation only when the SQL condition `when` holds (the terminal
   * write won); settling is conditional on the reservation being open, so
   * it happens once whoever else tries. One of them is named `settled` and
   * yields a row when it settled.
   */
  settlementCte(request: SettlementRequest, when: string): SqlFragment;
  /**
   * Told how each won terminal write's settlement went (`unchanged`: the
   * reservation was no longer open), for the settlements metric; optional.
   */
  counted?(outcome: SettlementOutcome): void;
}

export type SettlementOutcome = 'captured' | 'released' | 'unchanged';

export const SETTLEMENT_PORT = Symbol('SETTLEMENT_PORT');
