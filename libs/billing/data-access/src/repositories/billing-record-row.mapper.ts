import { StoredBillingRecord } from '../rows';

/** A `billing.records` row as PostgreSQL returns it. */
export interface RecordRow {
  id: string;
  account_id: string;
  seq: number;
  type_seq: number;
  type: 'top-up' | 'usage';
  amount_units: number;
  balance_after_units: number;
  model: string | null;
  category: string | null;
  task_id: string | null;
  created_at: Date;
}

export function recordFromRow(row: RecordRow): StoredBillingRecord {
  return Object.assign(new StoredBillingRecord(), {
    id: row.id,
    accountId: row.account_id,
    seq: row.seq,
    typeSeq: row.type_seq,
    type: row.type,
    amountUnits: row.amount_units,
    balanceAfterUnits: row.balance_after_units,
    model: row.model,
    category: row.category,
    taskId: row.task_id,
    createdAt: row.created_at,
  });
}
