import type { Currency } from '@genhub/money';

export const ACCOUNT_LEVELS = ['Bronze', 'Silver', 'Gold', 'Platinum'] as const;
export type AccountLevel = (typeof ACCOUNT_LEVELS)[number];
export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** A row of `accounts.accounts` (the migration is the schema; this is its shape in code). */
export class StoredAccount {
  id!: string;
  currency!: Currency;
  accountLevel!: AccountLevel;
  status!: AccountStatus;
  /** `whsec_` + base64: the Standard Webhooks signing key. Shown once, at creation. */
  webhookSecret!: string;
  createdAt!: Date;
  updatedAt!: Date;
}
