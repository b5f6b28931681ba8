import { Injectable } from '@nestjs/common';
import type { ChatModelDto, ChatModelListDto } from '@genhub/contracts/server';
import { AppErrorCode, AppException, modelNotFoundMessage } from '@genhub/errors';
import { CHAT_MODELS_CREATED, ChatCatalogue, ChatModelDefinition } from '@genhub/providers';

function modelView(model: ChatModelDefinition): ChatModelDto {
  return { id: model.id, object: 'model', created: CHAT_MODELS_CREATED, owned_by: model.ownedBy };
}

/**
 * `GET /v1/models`: the chat models only (task models are listed by
 * `GET /api/v3/models`); `GET /v1/models/{id}`: one of them, or 404.
 */
@Injectable()
export class ListChatModelsUseCase {
  constructor(private readonly catalogue: ChatCatalogue) {}

  execute(): ChatModelListDto {
    return {
      object: 'list',
      data: this.catalogue.all().map(modelView),
    };
  }

  one(id: string): ChatModelDto {
    const model = this.catalogue.find(id);
    if (!model)
      throw new AppException(AppErrorCode.ModelNotFound, {
        message: modelNotFoundMessage(id),
        param: 'model',
      });
    return modelView(model);
  }
}
