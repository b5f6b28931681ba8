import { getSchemaPath } from '@nestjs/swagger';
import {
  AdminAccountDto,
  AdminAccountPageDto,
  AdminApiKeyDto,
  AdminApiKeyListDto,
  AdminQueueAccountDto,
  AdminQueueAccountPageDto,
  AdminQueueTotalsDto,
  BalanceDto,
  BillingRecordDto,
  BillingsExportQueryDto,
  BillingsPageDto,
  BillingsQueryDto,
  ChatCompletionChoiceDto,
  ChatCompletionChunkChoiceDto,
  ChatCompletionChunkDto,
  ChatCompletionDeltaDto,
  ChatCompletionDto,
  ChatCompletionRequestDto,
  ChatCompletionUsageDto,
  ChatErrorDetailDto,
  ChatErrorDto,
  ReplicateErrorDto,
  ChatMessageDto,
  ChatModelDto,
  ChatModelListDto,
  ChatStreamOptionsDto,
  ChatTextPartDto,
  ChatCompletionMessageDto,
  CreateAccountDto,
  CreateApiKeyDto,
  DeleteTaskAnswerDto,
  ImageDataDto,
  ImageGenerationDto,
  ImageGenerationRequestDto,
  IssuedApiKeyDto,
  ListModelsQueryDto,
  ModelEntryDto,
  MODEL_INPUTS,
  RevokedApiKeyDto,
  RotatedWebhookSecretDto,
  SimulatorInputDto,
  SpeechRequestDto,
  SubmitAckDto,
  SubmitTaskQueryDto,
  TaskCompletedResultDto,
  TaskFailedResultDto,
  TaskProcessingResultDto,
  TimingsDto,
  TopUpDto,
  TranscriptionDto,
  TranscriptionRequestDto,
  UpdateAccountDto,
  UploadAnswerDto,
  UploadFileBodyDto,
  UsageBreakdownEntryDto,
  UsageQueryDto,
  UsageStatisticsDto,
  V1ErrorDto,
  V1NestedErrorDto,
  V3ErrorDto,
  WebhookDeliveryAttemptDto,
  WebhookDeliveryDto,
  WebhookPayloadDto,
} from '../dtos';
import { ImageToVideoInputDto, TextToImageInputDto, TextToSpeechInputDto } from '../dtos/inputs';

/** The component name of a DTO class (its `@ApiSchema` name, else the class name). */
export const schemaName = (dto: new () => object): string =>
  getSchemaPath(dto).split('/').pop() ?? '';

/** A catalogue model whose input schema the contracts own. */
export interface ModelInputContract {
  /** `{provider_id}/{model_id}/{run_type}` */
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  /** The class-validator DTO that validates the submit body. */
  readonly input: new () => object;
}

/**
 * Models with a submit path of their own in the OpenAPI document (exact body
 * type for typed clients). Every model is also reachable through the slug path,
 * whose body is any of the inputs.
 */
export const MODEL_SUBMIT_PATHS: readonly ModelInputContract[] = [
  {
    slug: 'local/simulator/test',
    name: 'Simulator',
    description:
      'Built-in model that exercises every path of a client without an upstream provider (priced 0.001 per task).',
    input: SimulatorInputDto,
  },
  {
    slug: 'local/image/text-to-image',
    name: 'Local image',
    description:
      'Offline generator: draws seeded abstract shapes and gradients from the prompt (not a diffusion model); PNG, JPEG or WebP at the requested size.',
    input: TextToImageInputDto,
  },
  {
    slug: 'local/speech/text-to-speech',
    name: 'Local speech',
    description:
      'Offline eSpeak-NG speech synthesis to a WAV file (robotic voice); a tone sequence derived from the text if the engine fails.',
    input: TextToSpeechInputDto,
  },
  {
    slug: 'local/video/image-to-video',
    name: 'Local video',
    description:
      'Offline pan-and-zoom over the input image (or a drawn one) as an animated WebP or GIF; not a video diffusion model.',
    input: ImageToVideoInputDto,
  },
  {
    slug: 'local/video/text-to-video',
    name: 'Local video from text',
    description:
      'Offline pan-and-zoom over an image drawn from the prompt as an animated WebP or GIF; not a video diffusion model.',
    input: ImageToVideoInputDto,
  },
];

/**
 * The input DTO of every model kind (`MODEL_INPUTS`) and of every model with a
 * path of its own, once each (several kinds may share one class).
 */
export const MODEL_INPUT_CLASSES: readonly (new () => object)[] = [
  ...new Set([...Object.values(MODEL_INPUTS), ...MODEL_SUBMIT_PATHS.map((model) => model.input)]),
];

/** Every DTO class that becomes a schema of the OpenAPI document. */
export const CONTRACT_MODELS: readonly (new () => object)[] = [
  SubmitTaskQueryDto,
  SubmitAckDto,
  TimingsDto,
  TaskProcessingResultDto,
  TaskCompletedResultDto,
  TaskFailedResultDto,
  DeleteTaskAnswerDto,
  WebhookPayloadDto,
  WebhookDeliveryAttemptDto,
  WebhookDeliveryDto,
  ListModelsQueryDto,
  ModelEntryDto,
  BalanceDto,
  BillingsQueryDto,
  BillingRecordDto,
  BillingsPageDto,
  BillingsExportQueryDto,
  UsageQueryDto,
  UsageBreakdownEntryDto,
  UsageStatisticsDto,
  UploadFileBodyDto,
  UploadAnswerDto,
  V1NestedErrorDto,
  V1ErrorDto,
  V3ErrorDto,
  ChatErrorDetailDto,
  ChatErrorDto,
  ReplicateErrorDto,
  ChatMessageDto,
  ChatCompletionRequestDto,
  ChatCompletionChoiceDto,
  ChatCompletionUsageDto,
  ChatCompletionDto,
  ChatStreamOptionsDto,
  ChatTextPartDto,
  ChatCompletionMessageDto,
  ChatCompletionDeltaDto,
  ChatCompletionChunkChoiceDto,
  ChatCompletionChunkDto,
  ChatModelDto,
  ChatModelListDto,
  ImageGenerationRequestDto,
  ImageDataDto,
  ImageGenerationDto,
  SpeechRequestDto,
  TranscriptionRequestDto,
  TranscriptionDto,
  CreateAccountDto,
  CreateApiKeyDto,
  TopUpDto,
  UpdateAccountDto,
  AdminAccountDto,
  IssuedApiKeyDto,
  RevokedApiKeyDto,
  RotatedWebhookSecretDto,
  AdminAccountPageDto,
  AdminApiKeyDto,
  AdminApiKeyListDto,
  AdminQueueAccountDto,
  AdminQueueTotalsDto,
  AdminQueueAccountPageDto,
  SimulatorInputDto,
  ...MODEL_INPUT_CLASSES,
];
