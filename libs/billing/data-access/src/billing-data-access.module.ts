import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BILLING_ENTITIES } from './entities';
import { LedgerRepository } from './repositories/ledger.repository';

@Module({
  imports: [TypeOrmModule.forFeature(BILLING_ENTITIES)],
  providers: [LedgerRepository],
  exports: [LedgerRepository],
})
export class BillingDataAccessModule {}
