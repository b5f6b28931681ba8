import { Module } from '@nestjs/common';
import { BillingHistoryRepository } from './repositories/billing-history.repository';
import { KeySpendRepository } from './repositories/key-spend.repository';
import { LedgerAuditRepository } from './repositories/ledger-audit.repository';
import { LedgerRepository } from './repositories/ledger.repository';

const REPOSITORIES = [
  LedgerRepository,
  BillingHistoryRepository,
  LedgerAuditRepository,
  KeySpendRepository,
];

@Module({
  providers: REPOSITORIES,
  exports: REPOSITORIES,
})
export class BillingDataAccessModule {}
