import { Module } from '@nestjs/common';
import { BillingDataAccessModule, LedgerRepository } from '@genhub/billing-data-access';
import { RESERVATION_PORT, ReservationPort, TasksFeatureModule } from '@genhub/tasks-feature';
import { TasksController } from './tasks.controller';

/**
 * Submit, result, sync, delete and the model list. The reservation made in
 * the submit transaction is the ledger's (billing data-access). Needs the
 * global AccountsFeatureModule (ApiKeyGuard), StorageModule and QueueModule.
 */
@Module({
  imports: [
    TasksFeatureModule.forGateway({
      imports: [BillingDataAccessModule],
      reservation: {
        provide: RESERVATION_PORT,
        inject: [LedgerRepository],
        useFactory: (ledger: LedgerRepository): ReservationPort => ({
          reserve: (manager, request) => ledger.reserve(manager, request),
        }),
      },
    }),
  ],
  controllers: [TasksController],
})
export class TasksHttpModule {}
