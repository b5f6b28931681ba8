import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CHAT_CATEGORY, LedgerRepository, spendPeriodStart } from '@genhub/billing-data-access';
import { CHAT_LEDGER_PORT, ChatLedgerPort } from '@genhub/chat-feature';

/**
 * Chat completions bill on the ledger: reserve an upper bound (counted against
 * the calling key's spend limit), then charge the actual cost or release it.
 */
export const chatLedger: Provider = {
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
        apiKeyId: r.apiKey?.id ?? null,
        ...(r.apiKey?.spendLimit
          ? {
              keyLimit: {
                limitUnits: r.apiKey.spendLimit.amountUnits,
                periodStart: spendPeriodStart(r.apiKey.spendLimit.period, new Date()),
              },
            }
          : {}),
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
