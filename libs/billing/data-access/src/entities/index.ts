import { BalanceEntity } from './balance.entity';
import { BillingRecordEntity } from './billing-record.entity';
import { ReservationEntity } from './reservation.entity';
import { UsageDailyEntity } from './usage-daily.entity';

export { BalanceEntity, BillingRecordEntity, ReservationEntity, UsageDailyEntity };
export type { BillingRecordType } from './billing-record.entity';
export type { ReservationState } from './reservation.entity';
