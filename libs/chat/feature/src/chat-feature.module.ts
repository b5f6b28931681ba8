import { DynamicModule, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { ChatProvidersModule } from '@genhub/providers';
import { ChatSessions } from './use-cases/chat-completion/chat-session.service';
import { CreateChatCompletionUseCase } from './use-cases/chat-completion/create-chat-completion.use-case';
import { GetChatModelUseCase } from './use-cases/chat-completion/get-chat-model.use-case';
import { ListChatModelsUseCase } from './use-cases/chat-completion/list-chat-models.use-case';
import { StreamChatCompletionUseCase } from './use-cases/chat-completion/stream-chat-completion.use-case';

const CHAT_USE_CASES = [
  CreateChatCompletionUseCase,
  StreamChatCompletionUseCase,
  ListChatModelsUseCase,
  GetChatModelUseCase,
];

export interface ChatGatewayOptions {
  /** Modules the ledger provider needs (e.g. BillingDataAccessModule). */
  imports?: ModuleMetadata['imports'];
  /** Binds CHAT_LEDGER_PORT. */
  ledger: Provider;
}

/** The chat endpoints' use-cases (gateway only). ChatConfig must be registered by the app. */
@Module({})
export class ChatFeatureModule {
  static forGateway(options: ChatGatewayOptions): DynamicModule {
    return {
      module: ChatFeatureModule,
      imports: [ChatProvidersModule.forRoot(), ...(options.imports ?? [])],
      providers: [options.ledger, ChatSessions, ...CHAT_USE_CASES],
      exports: CHAT_USE_CASES,
    };
  }
}
