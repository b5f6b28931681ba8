import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TASK_CODES, TASK_FAILURE_CODES, TaskCode } from '@genhub/errors';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';

const TASK_ID_EXAMPLE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const CREATED_AT_EXAMPLE = '2025-01-31T12:00:00.123';

/** Folder segments of safe characters; a segment made only of dots is refused. */
export const PREFIX_PATTERN =
  /^(?!\.{1,2}(?:\/|$))[A-Za-z0-9._-]+(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._-]+)*$/;

/**
 * Query parameters of `POST /v1/{provider_id}/{model_id}/{run_type}` (docs/interface.md,
 * "Submit task").
 */
@ApiSchema({ name: 'SubmitTaskQuery' })
export class SubmitTaskQueryDto {
  @ApiPropertyOptional({
    description:
      'Wait for completion (up to 10 minutes) and answer the result object instead of the acknowledgement.',
    type: Boolean,
  })
  @IsOptional()
  @Transform(({ value }) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value,
  )
  @IsBoolean()
  sync?: boolean;

  @ApiPropertyOptional({
    description:
      'Callback URL (http or https) that receives the webhook payload by POST when the task finishes. URL-encode it when it has a query string of its own.',
    format: 'uri',
    maxLength: 2048,
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  webhook?: string;

  @ApiPropertyOptional({
    description:
      'Storage prefix for the output files: folder segments (letters, digits, `.`, `_`, `-`) joined by slashes. No empty, `.` or `..` segment.',
    pattern: PREFIX_PATTERN.source,
    maxLength: 200,
    example: 'campaigns/2025/spring',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(PREFIX_PATTERN)
  prefix?: string;
}

/** Answer of an asynchronous submit (docs/interface.md, "Submit acknowledgement"). */
@ApiSchema({ name: 'SubmitAck' })
export class SubmitAckDto {
  @ApiProperty({
    description: 'Task id, used to poll or to match a webhook.',
    format: 'uuid',
    example: TASK_ID_EXAMPLE,
  })
  id!: string;

  @ApiProperty({ enum: ['created'], description: 'Always `created`.' })
  status!: 'created';

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Seconds, estimated from recent runs of the same model and channel; null when history is insufficient.',
    example: 12,
  })
  estimated_duration!: number | null;
}

/** Per-stage durations in milliseconds (docs/interface.md, "Task result"). */
@ApiSchema({ name: 'Timings' })
export class TimingsDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Time spent waiting in the queue.' })
  queue_wait!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Worker preparation before the model call.',
  })
  worker_init!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The model (or upstream provider) call.',
  })
  api_call!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Storing the outputs.' })
  save!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Everything else the run cost.' })
  run_overhead!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'From creation to the terminal state.' })
  total!: number;
}

/** A task that is not terminal yet: exactly `id` and `status` (answered with `Retry-After: 3`). */
@ApiSchema({ name: 'TaskProcessingResult' })
export class TaskProcessingResultDto {
  @ApiProperty({ example: TASK_ID_EXAMPLE })
  id!: string;

  @ApiProperty({ enum: ['processing'] })
  status!: 'processing';
}

/** A completed task: every field of the result object. */
@ApiSchema({ name: 'TaskCompletedResult' })
export class TaskCompletedResultDto {
  @ApiProperty({ example: TASK_ID_EXAMPLE })
  id!: string;

  @ApiProperty({ description: 'Slug of the model that ran.', example: 'local/simulator/test' })
  model!: string;

  @ApiProperty({ enum: ['completed'] })
  status!: 'completed';

  @ApiProperty({ type: 'integer', enum: [0], description: '`0` on success.' })
  code!: 0;

  @ApiProperty({
    type: [String],
    description:
      'Output URLs. For speech-to-text models it holds the transcribed text instead of URLs.',
  })
  outputs!: string[];

  @ApiProperty({ type: () => TimingsDto })
  timings!: TimingsDto;

  @ApiProperty({ type: String, nullable: true, description: 'Always null on success.' })
  error!: string | null;

  @ApiProperty({
    description: 'Task creation time, ISO 8601 without zone suffix.',
    example: CREATED_AT_EXAMPLE,
  })
  created_at!: string;
}

/** A failed task: no `timings`, empty `outputs`, the task code and its message. */
@ApiSchema({ name: 'TaskFailedResult' })
export class TaskFailedResultDto {
  @ApiProperty({ example: TASK_ID_EXAMPLE })
  id!: string;

  @ApiProperty({ example: 'local/simulator/test' })
  model!: string;

  @ApiProperty({ enum: ['failed'] })
  status!: 'failed';

  @ApiProperty({
    type: 'integer',
    enum: [...TASK_FAILURE_CODES],
    description: 'Task error code (see the error catalogue).',
    example: 1403,
  })
  code!: number;

  @ApiProperty({ type: [String], maxItems: 0, description: 'Always empty.' })
  outputs!: string[];

  @ApiProperty({
    description: 'Error message.',
    example: TASK_CODES[TaskCode.TaskExecutionFailed].message,
  })
  error!: string;

  @ApiProperty({ example: CREATED_AT_EXAMPLE })
  created_at!: string;
}

/** `data` of `DELETE /api/v3/predictions/{id}`. */
@ApiSchema({ name: 'DeleteTaskAnswer' })
export class DeleteTaskAnswerDto {
  @ApiProperty({ example: TASK_ID_EXAMPLE })
  id!: string;

  @ApiProperty({ enum: ['deleted'] })
  status!: 'deleted';
}

/** The result object of `GET /v1/requests/{id}` (and of `sync=true`): narrow on `status`. */
export type TaskResultBody = TaskProcessingResultDto | TaskCompletedResultDto | TaskFailedResultDto;
