import { Module } from '@nestjs/common';
import { BillingDataAccessModule, LedgerRepository } from '@genhub/billing-data-access';
import { METRICS, MetricsService } from '@genhub/observability';
import { RESERVATION_PORT, ReservationPort, TasksFeatureModule } from '@genhub/tasks-feature';
import { TasksController } from './tasks.controller';

/**
 * Submit, result, sync, delete and the model list. The reservation made in
 * the submit statement is the ledger's (billing data-access), counted by
 * outcome. Needs the global AccountsFeatureModule (ApiKeyGuard), StorageModule
 * and QueueModule.
 */
@Module({
  imports: [
    TasksFeatureModule.forGateway({
      imports: [BillingDataAccessModule],
      reservation: {
        provide: RESERVATION_PORT,
        inject: [LedgerRepository, MetricsService],
        useFactory: (ledger: LedgerRepository, metrics: MetricsService): ReservationPort => {
          const reservations = metrics.counter(METRICS.reservations);
          const byOutcome = {
            reserved: reservations.labels('reserved'),
            insufficient: reservations.labels('insufficient'),
          };
          return {
            reservationCte: (request) => ledger.reservationCte(request),
            shortfall: (accountId) => ledger.shortfall(accountId),
            counted: (outcome) => byOutcome[outcome].inc(),
          };
        },
      },
    }),
  ],
  controllers: [TasksController],
})
export class TasksHttpModule {}
