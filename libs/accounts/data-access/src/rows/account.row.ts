import type { AccountLevel, AccountStatus } from '@genhub/contracts/server';
import type { Currency } from '@genhub/money';

export type { AccountLevel, AccountStatus };

/** A row of `accounts.accounts` (the migration is the schema; this is its shape in code). */
export class StoredAccount {
  id!: string;
  currency!: Currency;
  accountLevel!: AccountLevel;
  status!: AccountStatus;
  /**
   * The operator's cap on the account's tasks running at once (issue 36); null,
   * the default, is no cap.
   */
  maxConcurrentTasks!: number | null;
  /** `whsec_` + base64: the Standard Webhooks signing key. Shown once, at creation. */
  webhookSecret!: string;
  createdAt!: Date;
  updatedAt!: Date;
}
