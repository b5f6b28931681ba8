import { DynamicModule, Module } from '@nestjs/common';
import { TaskFlowModule } from '@genhub/task-flow';
import { ChatController } from './chat.controller';

/**
 * `GET /v1/models` and `POST /v1/chat/completions`, billed on the ledger by
 * the task flow. Needs ChatConfig and the global ApiKeyGuard.
 */
@Module({})
export class ChatHttpModule {
  static forRoot(): DynamicModule {
    return {
      module: ChatHttpModule,
      imports: [TaskFlowModule.forChat()],
      controllers: [ChatController],
    };
  }
}
