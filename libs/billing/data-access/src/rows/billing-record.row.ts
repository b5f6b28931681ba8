export type BillingRecordType = 'top-up' | 'usage';

/** A row of `billing.records` (the migration is the schema; this is its shape in code). */
export class StoredBillingRecord {
  id!: string;
  accountId!: string;
  seq!: number;
  typeSeq!: number;
  type!: BillingRecordType;
  amountUnits!: number;
  balanceAfterUnits!: number;
  model!: string | null;
  category!: string | null;
  taskId!: string | null;
  createdAt!: Date;
}
