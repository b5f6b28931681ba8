import { DynamicModule, Module } from '@nestjs/common';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import { ChatFeatureModule } from '@genhub/chat-feature';
import { ChatController } from './chat.controller';
import { chatLedger } from './chat-ledger.provider';

/**
 * `GET /v1/models` and `POST /v1/chat/completions`, billed on the ledger
 * (chatLedger). Needs ChatConfig and the global ApiKeyGuard.
 */
@Module({})
export class ChatHttpModule {
  static forRoot(): DynamicModule {
    return {
      module: ChatHttpModule,
      imports: [
        ChatFeatureModule.forGateway({ imports: [BillingDataAccessModule], ledger: chatLedger }),
      ],
      controllers: [ChatController],
    };
  }
}
