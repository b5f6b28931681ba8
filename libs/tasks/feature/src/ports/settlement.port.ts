import type { SqlFragment } from '@genhub/tasks-data-access';

export interface SettlementRequest {
  taskId: string;
  accountId: string;
  /** How the run ended; whether that captures or releases is the task flow's rule. */
  status: 'completed' | 'failed';
}

/**
 * Settles a task's reservation in the statement that ends its run, so a task
 * costs no second transaction, no settle job and no hop through the billing
 * app. The tasks domain does not import billing: the task flow
 * (`@genhub/task-flow`) binds this port to the ledger and its settlement
 * rules; tests bind it to whatever they need. Deletions settle through
 * SettleTask jobs.
 */
export interface SettlementPort {
  /**
   * Data-modifying CTEs, parameters numbered from $1, that settle the
   * reservation only when the SQL condition `when` holds (the terminal
   * write won); settling is conditional on the reservation being open, so
   * it happens once whoever else tries. Its `yields` CTE has a row when it
   * settled.
   */
  settlementCte(request: SettlementRequest, when: string): SqlFragment;
  /**
   * Told how each won terminal write's settlement went (`settled` false: the
   * reservation was no longer open), for the settlements metric; optional.
   */
  counted?(request: SettlementRequest, settled: boolean): void;
}

export const SETTLEMENT_PORT = Symbol('SETTLEMENT_PORT');
