import { Injectable } from '@nestjs/common';
import type { ChatModelDto } from '@genhub/contracts/server';
import { AppErrorCode, AppException, modelNotFoundMessage } from '@genhub/errors';
import { ChatCatalogue } from '@genhub/providers';
import { chatModelView } from './list-chat-models.use-case';

/** `GET /v1/models/{model}`: one chat model, or 404 (`param: "model"`). */
@Injectable()
export class GetChatModelUseCase {
  constructor(private readonly catalogue: ChatCatalogue) {}

  execute(id: string): ChatModelDto {
    const model = this.catalogue.find(id);
    if (!model)
      throw new AppException(AppErrorCode.ModelNotFound, {
        message: modelNotFoundMessage(id),
        param: 'model',
      });
    return chatModelView(model);
  }
}
