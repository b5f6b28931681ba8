import { Injectable } from '@nestjs/common';
import type { ChatModelListDto } from '@genhub/contracts/server';
import { CHAT_MODELS_CREATED, ChatCatalogue } from '@genhub/providers';

/** `GET /v1/models`: the chat models only (task models are listed by `GET /api/v3/models`). */
@Injectable()
export class ListChatModelsUseCase {
  constructor(private readonly catalogue: ChatCatalogue) {}

  execute(): ChatModelListDto {
    return {
      object: 'list',
      data: this.catalogue.all().map((model) => ({
        id: model.id,
        object: 'model',
        created: CHAT_MODELS_CREATED,
        owned_by: model.ownedBy,
      })),
    };
  }
}
