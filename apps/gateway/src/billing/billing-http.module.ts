import { Module } from '@nestjs/common';
import { BillingFeatureModule } from '@genhub/billing-feature';
import { BalanceController, BillingsController } from './billing.controller';

/**
 * The public billing endpoints: balance, billings, usage, export. Authentication
 * (`ApiKeyGuard`) comes from the global AccountsFeatureModule.
 */
@Module({
  imports: [BillingFeatureModule],
  controllers: [BalanceController, BillingsController],
})
export class BillingHttpModule {}
