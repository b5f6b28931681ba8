import type { Type } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { RevokedApiKeyDto } from './admin.dto';
import { ApiKeyDto, IssuedOwnApiKeyDto } from './api-key.dto';
import { BillingsPageDto, UsageStatisticsDto } from './billing.dto';
import type { ApiEnvelopeDto } from './envelope.dto';
import { UploadAnswerDto } from './file.dto';
import { MediaUploadTicketDto } from './media-upload.dto';
import { ModelEntryDto } from './model.dto';
import { PredictionDto } from './prediction.dto';
import { DeleteTaskAnswerDto } from './task.dto';
import { TaskEventsTokenDto } from './task-events.dto';
import { TaskListPageDto } from './task-history.dto';
import { WebhookDeliveryDto } from './webhook.dto';

/**
 * One named envelope schema per `/api/v3/` payload (`BillingsPageResponse` is
 * `{code: 200, message: "success", data: BillingsPage}`): what a route's
 * `@V3Route({ ok: { type: … } })` answers. Classes for the document only; the
 * controllers build plain objects with `envelope()`.
 */
function namedEnvelope<T>(name: string, data: Type<T>, isArray = false): Type<ApiEnvelopeDto<T>> {
  @ApiSchema({ name, description: 'The `/api/v3/` envelope.' })
  class NamedEnvelope implements ApiEnvelopeDto<T> {
    @ApiProperty({ type: 'integer', enum: [200] })
    code!: 200;

    @ApiProperty({ enum: ['success'] })
    message!: 'success';

    @ApiProperty({ type: data, isArray })
    data!: T;
  }
  return NamedEnvelope;
}

export const ModelListResponseDto = namedEnvelope('ModelListResponse', ModelEntryDto, true);
export const BillingsPageResponseDto = namedEnvelope('BillingsPageResponse', BillingsPageDto);
export const UsageStatisticsResponseDto = namedEnvelope(
  'UsageStatisticsResponse',
  UsageStatisticsDto,
);
export const DeleteTaskResponseDto = namedEnvelope('DeleteTaskResponse', DeleteTaskAnswerDto);
export const UploadResponseDto = namedEnvelope('UploadResponse', UploadAnswerDto);
export const WebhookDeliveriesResponseDto = namedEnvelope(
  'WebhookDeliveriesResponse',
  WebhookDeliveryDto,
);

export const PredictionResponseDto = namedEnvelope('PredictionResponse', PredictionDto);
export const MediaUploadTicketResponseDto = namedEnvelope(
  'MediaUploadTicketResponse',
  MediaUploadTicketDto,
);

export const TaskListResponseDto = namedEnvelope('TaskListResponse', TaskListPageDto);
export const TaskEventsTokenResponseDto = namedEnvelope(
  'TaskEventsTokenResponse',
  TaskEventsTokenDto,
);

export const ApiKeyListResponseDto = namedEnvelope('ApiKeyListResponse', ApiKeyDto, true);
export const ApiKeyResponseDto = namedEnvelope('ApiKeyResponse', ApiKeyDto);
export const IssuedOwnApiKeyResponseDto = namedEnvelope(
  'IssuedOwnApiKeyResponse',
  IssuedOwnApiKeyDto,
);
export const RevokedOwnApiKeyResponseDto = namedEnvelope('RevokedApiKeyResponse', RevokedApiKeyDto);

/** Every envelope: their key lists are exhaustive. */
export const API_ENVELOPES: readonly Type<unknown>[] = [
  ModelListResponseDto,
  BillingsPageResponseDto,
  UsageStatisticsResponseDto,
  DeleteTaskResponseDto,
  UploadResponseDto,
  WebhookDeliveriesResponseDto,
  PredictionResponseDto,
  MediaUploadTicketResponseDto,
  TaskListResponseDto,
  TaskEventsTokenResponseDto,
  ApiKeyListResponseDto,
  ApiKeyResponseDto,
  IssuedOwnApiKeyResponseDto,
  RevokedOwnApiKeyResponseDto,
];
