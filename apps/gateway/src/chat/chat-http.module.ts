import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  BillingDataAccessModule,
  CHAT_CATEGORY,
  LedgerRepository,
} from '@genhub/billing-data-access';
import { CHAT_LEDGER_PORT, ChatFeatureModule, ChatLedgerPort } from '@genhub/tasks-feature';
import { ChatController } from './chat.controller';

/** The ledger behind chat billing: one conditional statement per step, keyed by completion id. */
function chatLedger(ledger: LedgerRepository, dataSource: DataSource): ChatLedgerPort {
  return {
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
  };
}

/** `GET /v1/models` and `POST /v1/chat/completions`. Needs ChatConfig and the global ApiKeyGuard. */
@Module({})
export class ChatHttpModule {
  static forRoot(): DynamicModule {
    return {
      module: ChatHttpModule,
      imports: [
        ChatFeatureModule.forGateway({
          imports: [BillingDataAccessModule],
          ledger: {
            provide: CHAT_LEDGER_PORT,
            inject: [LedgerRepository, DataSource],
            useFactory: chatLedger,
          },
        }),
      ],
      controllers: [ChatController],
    };
  }
}
