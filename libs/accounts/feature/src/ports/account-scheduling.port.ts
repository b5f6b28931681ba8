import type { AccountLevel } from '@genhub/contracts/server';

/** How the task scheduler is to treat an account: its level's weight and the operator's cap. */
export interface AccountSchedulingShare {
  level: AccountLevel;
  /** Tasks of the account running at once at most; null: no cap (the default). */
  maxConcurrentTasks: number | null;
}

/**
 * The fair scheduling of tasks (issue 36) belongs to the task engine, another
 * domain: this lib only says when an account's share changed, and the app
 * binds the port (the gateway to the engine's `FairStage`). A failure is
 * logged, never the operator's error: each submit carries the share again.
 */
export interface AccountScheduling {
  shareChanged(accountId: string, share: AccountSchedulingShare): Promise<void>;
}

export const ACCOUNT_SCHEDULING = Symbol('ACCOUNT_SCHEDULING');
