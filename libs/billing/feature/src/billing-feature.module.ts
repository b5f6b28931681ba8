import { Module } from '@nestjs/common';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import { AuditLedgerUseCase } from './use-cases/audit-ledger/audit-ledger.use-case';
import { ExportBillingsUseCase } from './use-cases/export-billings/export-billings.use-case';
import { GetBalanceUseCase } from './use-cases/get-balance/get-balance.use-case';
import { GetUsageUseCase } from './use-cases/get-usage/get-usage.use-case';
import { ListBillingsUseCase } from './use-cases/list-billings/list-billings.use-case';
import { ReleaseOrphanedChatReservationsUseCase } from './use-cases/release-orphaned-chat-reservations/release-orphaned-chat-reservations.use-case';
import { SettleTaskUseCase } from './use-cases/settle-task/settle-task.use-case';

const USE_CASES = [
  SettleTaskUseCase,
  GetBalanceUseCase,
  ListBillingsUseCase,
  GetUsageUseCase,
  ExportBillingsUseCase,
  AuditLedgerUseCase,
  ReleaseOrphanedChatReservationsUseCase,
];

/** The billing use-cases, for the billing app (settle), the gateway (queries) and the admin CLI (audit). */
@Module({
  imports: [BillingDataAccessModule],
  providers: USE_CASES,
  exports: USE_CASES,
})
export class BillingFeatureModule {}
