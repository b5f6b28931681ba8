import { DynamicModule, Module } from '@nestjs/common';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import { BillingFeatureModule } from '@genhub/billing-feature';
import { ServiceModule } from '@genhub/service';
import { LedgerAuditScheduler } from './ledger-audit/ledger-audit.scheduler';
import { OpenReservationsMetrics } from './settle-task/open-reservations.metrics';
import { SettleTaskProcessor } from './settle-task/settle-task.processor';

/** Settles reservations from the billing queue. Serves only /health, /ready and /metrics. */
@Module({})
export class BillingModule {
  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: BillingModule,
      imports: [
        ServiceModule.forRoot('billing', env),
        BillingDataAccessModule,
        BillingFeatureModule,
      ],
      providers: [SettleTaskProcessor, OpenReservationsMetrics, LedgerAuditScheduler],
    };
  }
}
