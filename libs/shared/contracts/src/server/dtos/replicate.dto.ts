import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

// The Replicate-compatible API (`/replicate/v1`, decision 0137): Replicate's own
// shapes, as its official client reads them. A version is one run type of a
// model, with the id `{provider_id}~{model_id}~{run_type}`.

const REPLICATE_STATUSES = ['starting', 'processing', 'succeeded', 'failed', 'canceled'] as const;
const WEBHOOK_EVENTS = ['start', 'output', 'logs', 'completed'] as const;

@ApiSchema({ name: 'ReplicatePredictionUrls' })
export class ReplicatePredictionUrlsDto {
  @ApiProperty({ format: 'uri', description: 'This prediction, under the caller’s base URL.' })
  get!: string;

  @ApiProperty({ format: 'uri', description: 'Where to cancel it.' })
  cancel!: string;
}

@ApiSchema({ name: 'ReplicatePredictionMetrics' })
export class ReplicatePredictionMetricsDto {
  @ApiPropertyOptional({ description: 'Seconds the model ran (once succeeded).' })
  predict_time?: number;

  @ApiPropertyOptional({ description: 'Seconds from creation to the end (once succeeded).' })
  total_time?: number;
}

@ApiSchema({ name: 'ReplicatePrediction' })
export class ReplicatePredictionDto {
  @ApiProperty({ example: '0f8fad5b-d9cb-469f-a165-70867728950e' })
  id!: string;

  @ApiProperty({ description: '`{provider_id}/{model_id}`.', example: 'local/simulator' })
  model!: string;

  @ApiProperty({ description: 'The run type’s version id.', example: 'local~simulator~test' })
  version!: string;

  @ApiProperty({
    enum: REPLICATE_STATUSES,
    description:
      '`starting` (created; also the answer of a `Prefer: wait` that ran out), `processing`, then `succeeded`, `failed` or `canceled`.',
  })
  status!: (typeof REPLICATE_STATUSES)[number];

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The model input as stored.',
  })
  input!: Record<string, unknown>;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'Output URLs once succeeded, else null.',
  })
  output!: string[] | null;

  @ApiProperty({ type: String, nullable: true })
  error!: string | null;

  @ApiProperty({ description: 'Always empty: genhub’s models write no logs.', example: '' })
  logs!: string;

  @ApiProperty({ type: () => ReplicatePredictionMetricsDto })
  metrics!: ReplicatePredictionMetricsDto;

  @ApiProperty({ type: () => ReplicatePredictionUrlsDto })
  urls!: ReplicatePredictionUrlsDto;

  @ApiProperty({ enum: ['api'] })
  source!: 'api';

  @ApiProperty({ example: false })
  data_removed!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Null in list entries.',
  })
  started_at!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Null until it ended, and in list entries.',
  })
  completed_at!: string | null;
}

@ApiSchema({ name: 'ReplicatePredictionPage' })
export class ReplicatePredictionPageDto {
  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'The page before.' })
  previous!: string | null;

  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'The page after.' })
  next!: string | null;

  @ApiProperty({ type: () => [ReplicatePredictionDto] })
  results!: ReplicatePredictionDto[];
}

/** The create body: documentation only (the route reads it leniently, as Replicate does). */
@ApiSchema({ name: 'ReplicateCreatePrediction' })
export class ReplicateCreatePredictionDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The model input, checked against the run type’s input schema.',
  })
  input!: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'The version id: required on `POST /replicate/v1/predictions`, ignored elsewhere.',
    example: 'local~simulator~test',
  })
  version?: string;

  @ApiPropertyOptional({ format: 'uri', description: 'Where to POST the prediction when it ends.' })
  webhook?: string;

  @ApiPropertyOptional({
    type: [String],
    enum: WEBHOOK_EVENTS,
    description:
      'Events to send (default: all). One delivery at the end: sent for `completed`, or for `output` when it succeeded; `start` and `logs` are never sent.',
  })
  webhook_events_filter?: (typeof WEBHOOK_EVENTS)[number][];
}

@ApiSchema({ name: 'ReplicateVersion' })
export class ReplicateVersionDto {
  @ApiProperty({ example: 'local~simulator~test' })
  id!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Always null: run types have none.' })
  created_at!: null;

  @ApiProperty({ type: String, nullable: true, description: 'Always null.' })
  cog_version!: null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'An OpenAPI document whose `components.schemas.Input` is the run type’s input.',
  })
  openapi_schema!: Record<string, unknown>;
}

@ApiSchema({ name: 'ReplicateVersionPage' })
export class ReplicateVersionPageDto {
  @ApiProperty({ type: String, nullable: true, description: 'Always null: one page.' })
  previous!: null;

  @ApiProperty({ type: String, nullable: true, description: 'Always null: one page.' })
  next!: null;

  @ApiProperty({ type: () => [ReplicateVersionDto] })
  results!: ReplicateVersionDto[];
}

@ApiSchema({ name: 'ReplicateModel' })
export class ReplicateModelDto {
  @ApiProperty({ format: 'uri' })
  url!: string;

  @ApiProperty({ description: 'The provider id.', example: 'local' })
  owner!: string;

  @ApiProperty({ description: 'The model id.', example: 'simulator' })
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ enum: ['public'] })
  visibility!: 'public';

  @ApiProperty({ type: 'integer', example: 0 })
  run_count!: number;

  @ApiProperty({ type: String, nullable: true })
  github_url!: null;

  @ApiProperty({ type: String, nullable: true })
  paper_url!: null;

  @ApiProperty({ type: String, nullable: true })
  license_url!: null;

  @ApiProperty({ type: String, nullable: true })
  cover_image_url!: null;

  @ApiProperty({ type: String, nullable: true })
  default_example!: null;

  @ApiProperty({
    type: () => ReplicateVersionDto,
    description: 'The first run type listed (run types have no order in time).',
  })
  latest_version!: ReplicateVersionDto;
}

@ApiSchema({ name: 'ReplicateWebhookSecret' })
export class ReplicateWebhookSecretDto {
  @ApiProperty({ description: 'The account’s webhook signing secret.', example: 'whsec_…' })
  key!: string;
}
