import type { GroupCommitOptions } from '@genhub/database';

/**
 * How the engine's statements that hold an account's balance row (a submit's
 * reservation, a run's settlement) are grouped per process (group commit,
 * decision 0118). One batch in flight per line: the next gathers while it
 * holds the row and commits (a second would only wait on that row's lock).
 * Below `lanesFromInFlight` statements in flight each account has a line of
 * its own; from there all accounts share `lanes` lines, and those that wait
 * on a busy lane go together, whatever their accounts, in one transaction
 * of at most `maxBatch`.
 */
export const ACCOUNT_LINES: GroupCommitOptions = {
  perLine: 1,
  lanes: 2,
  lanesFromInFlight: 8,
  maxBatch: 64,
};
