import { StoredBalance } from './balance.row';
import { StoredBillingRecord } from './billing-record.row';
import { StoredReservation } from './reservation.row';
import { StoredUsageDaily } from './usage-daily.row';

export { StoredBalance, StoredBillingRecord, StoredReservation, StoredUsageDaily };
export type { BillingRecordType } from './billing-record.row';
export type { ReservationState } from './reservation.row';
