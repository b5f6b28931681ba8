import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BILLING_ENTITIES } from './entities';
import { BillingHistoryRepository } from './repositories/billing-history.repository';
import { LedgerAuditRepository } from './repositories/ledger-audit.repository';
import { LedgerRepository } from './repositories/ledger.repository';

const REPOSITORIES = [LedgerRepository, BillingHistoryRepository, LedgerAuditRepository];

@Module({
  imports: [TypeOrmModule.forFeature(BILLING_ENTITIES)],
  providers: REPOSITORIES,
  exports: REPOSITORIES,
})
export class BillingDataAccessModule {}
