import type { Currency } from '@genhub/money';

/** A row of `billing.balances` (the migration is the schema; this is its shape in code). */
export class StoredBalance {
  accountId!: string;
  currency!: Currency;
  balanceUnits!: number;
  reservedUnits!: number;
  recordCount!: number;
  topupCount!: number;
  usageCount!: number;
  updatedAt!: Date;
}
