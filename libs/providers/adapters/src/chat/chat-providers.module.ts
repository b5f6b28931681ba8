import { DynamicModule, Module } from '@nestjs/common';
import { ChatConfig } from '@genhub/config';
import type { ProvidersFile } from '../config/providers-file.types';
import { PROVIDERS_FILE_CONTENTS, ProvidersModule } from '../providers.module';
import { ChatCatalogue } from './chat-catalogue.service';
import { chatModelsFromFile } from './chat-models-from-file.util';
import { localChatModels } from './local-chat-model.adapter';

/** The chat catalogue of one process: the local model (ENABLE_LOCAL_CHAT) and the providers file's chat models. */
export function buildChatCatalogue(
  config: Pick<ChatConfig, 'ENABLE_LOCAL_CHAT'>,
  file?: Pick<ProvidersFile, 'upstreams' | 'chatModels'>,
): ChatCatalogue {
  return new ChatCatalogue([
    ...(config.ENABLE_LOCAL_CHAT ? [localChatModels()] : []),
    ...(file?.chatModels.length ? [chatModelsFromFile(file)] : []),
  ]);
}

/** Provides the ChatCatalogue, built once from ChatConfig and the parsed providers file. */
@Module({})
export class ChatProvidersModule {
  static forRoot(): DynamicModule {
    return {
      module: ChatProvidersModule,
      imports: [ProvidersModule],
      providers: [
        {
          provide: ChatCatalogue,
          inject: [ChatConfig, PROVIDERS_FILE_CONTENTS],
          useFactory: buildChatCatalogue,
        },
      ],
      exports: [ChatCatalogue],
    };
  }
}
