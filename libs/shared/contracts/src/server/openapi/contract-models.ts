import {
  BalanceDto,
  BillingRecordDto,
  BillingsExportQueryDto,
  BillingsPageDto,
  BillingsQueryDto,
  ChatCompletionChoiceDto,
  ChatCompletionDto,
  ChatCompletionRequestDto,
  ChatCompletionUsageDto,
  ChatErrorDetailDto,
  ChatErrorDto,
  ChatMessageDto,
  ChatModelDto,
  ChatModelListDto,
  DeleteTaskAnswerDto,
  ListModelsQueryDto,
  ModelEntryDto,
  ModelPriceDto,
  SimulatorInputDto,
  SubmitAckDto,
  SubmitTaskQueryDto,
  TaskCompletedResultDto,
  TaskFailedResultDto,
  TaskProcessingResultDto,
  TimingsDto,
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
 * Every model input schema known to the contracts. Each gets its own submit
 * path in the OpenAPI document. Add a model here when its DTO lands.
 */
export const MODEL_INPUTS: readonly ModelInputContract[] = [
  {
    slug: 'local/simulator/test',
    name: 'Simulator',
    description:
      'Built-in model that exercises every path of a client without an upstream provider (priced 0.001 per task).',
    input: SimulatorInputDto,
  },
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
  ModelPriceDto,
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
  ChatMessageDto,
  ChatCompletionRequestDto,
  ChatCompletionChoiceDto,
  ChatCompletionUsageDto,
  ChatCompletionDto,
  ChatModelDto,
  ChatModelListDto,
  ...MODEL_INPUTS.map((model) => model.input),
];
