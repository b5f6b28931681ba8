import type { RecordView } from '@genhub/billing-data-access';
import type { BillingRecordDto } from '@genhub/contracts/server';
import { fromMicros } from '@genhub/money';

export type BillingRecordTypeFilter = BillingRecordDto['type'];
export const BILLING_RECORD_TYPES: readonly BillingRecordTypeFilter[] = ['top-up', 'usage'];

/**
 * Billings paging: default 20, page 1 (docs/interface.md, "Check billings"); the maximum
 * page size is ours.
 */
export const BILLINGS_DEFAULT_PER_PAGE = 20;
export const BILLINGS_MAX_PER_PAGE = 100;
/** Deepest page accepted: keeps page × per_page a safe integer with room to spare. */
export const BILLINGS_MAX_PAGE = 1_000_000_000;

/**
 * A billing record (docs/interface.md, "Billing record"): `model` and `task_id` only on
 * usage records.
 */
export function billingRecordJson(view: RecordView): BillingRecordDto {
  const head = {
    id: view.id,
    date: view.date,
    type: view.type,
    amount: fromMicros(view.amountUnits),
  };
  const balance_after = fromMicros(view.balanceAfterUnits);
  // Keys in their documented order (docs/interface.md, "Billing record"); model and task_id
  // only on usage records.
  return view.type === 'usage'
    ? { ...head, model: view.model ?? '', task_id: view.taskId ?? '', balance_after }
    : { ...head, balance_after };
}
