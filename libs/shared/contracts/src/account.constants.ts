// The account facts of the public interface, stated once (docs/interface.md, "Balance
// object", "Admin API"); the accounts schema's CHECK constraints were written from them.
// The currencies are `CURRENCIES` of @genhub/money, with the arithmetic they go with.

/** The account levels (`GET /v1/balance`, the admin API). */
export const ACCOUNT_LEVELS = ['Bronze', 'Silver', 'Gold', 'Platinum'] as const;
export type AccountLevel = (typeof ACCOUNT_LEVELS)[number];
/** A new account's level when none is given (the admin API and CLI). */
export const DEFAULT_ACCOUNT_LEVEL: AccountLevel = 'Bronze';

/**
 * What each level grants under contention: its share of the worker slots
 * relative to the other accounts with tasks waiting (fair scheduling,
 * decision 0133). Alone, any account gets every slot.
 */
export const LEVEL_WEIGHTS = {
  Bronze: 1,
  Silver: 2,
  Gold: 4,
  Platinum: 8,
} as const satisfies Record<AccountLevel, number>;

/** An account's states: a suspended account's keys are refused with 403. */
export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * The largest `max_concurrent_tasks` an operator may set on an account (issue 36); the
 * smallest is 1, and `null` (the default) is no cap.
 */
export const MAX_CONCURRENT_TASKS_LIMIT = 10_000;
