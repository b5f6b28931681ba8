import { Module } from '@nestjs/common';
import { UploadQuotaService } from '@genhub/accounts-feature';
import { UPLOAD_QUOTA, UploadFileUseCase } from '@genhub/storage';
import { GATEWAY_TASK_ENGINE } from '../tasks/tasks-http.module';
import { MediaTaskUseCase } from './media-task.use-case';
import { OpenAiMediaController } from './openai-media.controller';

/**
 * `POST /v1/images/generations`, `/v1/audio/speech` and `/v1/audio/transcriptions`
 * (decision 0136) over the gateway's one task engine: the same sync submit, billing and
 * settlement as `/v1`. A transcription's file is an upload of the account's, under its quotas.
 * Needs the global AccountsFeatureModule (ApiKeyGuard) and StorageModule.
 */
@Module({
  imports: [GATEWAY_TASK_ENGINE],
  controllers: [OpenAiMediaController],
  providers: [
    MediaTaskUseCase,
    UploadFileUseCase,
    UploadQuotaService,
    { provide: UPLOAD_QUOTA, useExisting: UploadQuotaService },
  ],
})
export class OpenAiMediaHttpModule {}
