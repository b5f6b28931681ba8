import { Injectable } from '@nestjs/common';
import type { ChatModelDto, ChatModelListDto } from '@genhub/contracts/server';
import { CHAT_MODELS_CREATED, ChatCatalogue, ChatModelDefinition } from '@genhub/providers';

/** One entry of `GET /v1/models`, as `GET /v1/models/{model}` answers it too. */
export function chatModelView(model: ChatModelDefinition): ChatModelDto {
  return { id: model.id, object: 'model', created: CHAT_MODELS_CREATED, owned_by: model.ownedBy };
}

/** `GET /v1/models`: the chat models only (task models are listed by `GET /api/v3/models`). */
@Injectable()
export class ListChatModelsUseCase {
  constructor(private readonly catalogue: ChatCatalogue) {}

  execute(): ChatModelListDto {
    return {
      object: 'list',
      data: this.catalogue.all().map(chatModelView),
    };
  }
}
