import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CHAT_CATEGORY, LedgerRepository } from '@genhub/billing-data-access';
import { METRICS, MetricsService } from '@genhub/observability';
import { CHAT_LEDGER_PORT, ChatLedgerPort } from '@genhub/chat-feature';
import {
  RESERVATION_PORT,
  ReservationPort,
  SETTLEMENT_PORT,
  SettlementPort,
} from '@genhub/tasks-feature';
import { settlementFor } from '../settlement/settlement-rules.util';

/**
 * The tasks domain's money ports bound to the ledger (billing data access):
 * the one place where a task statement meets the ledger's SQL, and where the
 * settlement rules pick capture or release.
 */

/** Submit: the reservation CTE composed into the statement that creates the task. */
export const ledgerReservation: Provider = {
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
};

/** A run's terminal statement: capture or release, as the settlement rules say. */
export const ledgerSettlement: Provider = {
  provide: SETTLEMENT_PORT,
  inject: [LedgerRepository, MetricsService],
  useFactory: (ledger: LedgerRepository, metrics: MetricsService): SettlementPort => {
    const settlements = metrics.counter(METRICS.settlements);
    const outcomeOf = (status: 'completed' | 'failed') =>
      settlementFor({ path: 'run-ended', status }) === 'capture' ? 'capture' : 'release';
    return {
      settlementCte: (request, when) =>
        ledger.settlementCte({ ...request, outcome: outcomeOf(request.status) }, when),
      counted: (request, settled) =>
        settlements.inc({
          outcome: !settled
            ? 'unchanged'
            : outcomeOf(request.status) === 'capture'
              ? 'captured'
              : 'released',
        }),
    };
  },
};

/** Chat completions: reserve an upper bound, then charge the actual cost or release it. */
export const ledgerChat: Provider = {
  provide: CHAT_LEDGER_PORT,
  inject: [LedgerRepository, DataSource],
  useFactory: (ledger: LedgerRepository, dataSource: DataSource): ChatLedgerPort => ({
    reserve: (r) =>
      ledger.reserve(dataSource.manager, {
        accountId: r.accountId,
        taskId: r.completionId,
        amountUnits: r.amountUnits,
        model: r.model,
        category: CHAT_CATEGORY,
      }),
    capture: async (c) => {
      await ledger.captureAmount({
        taskId: c.completionId,
        accountId: c.accountId,
        amountUnits: c.amountUnits,
      });
    },
    release: async (r) => {
      await ledger.release({ taskId: r.completionId, accountId: r.accountId });
    },
  }),
};
