import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TASK_STATUSES, type TaskStatus } from '../../task-status.constants';

/**
 * The task as the WaveSpeed v3 API (and its official SDKs) read it: the
 * `data` of `POST /api/v3/{provider}/{model}/{run_type}` and of
 * `GET /api/v3/predictions/{id}/result`. Another view of the same task as the
 * `/v1` result object, never another task.
 */
@ApiSchema({ name: 'PredictionUrls' })
export class PredictionUrlsDto {
  @ApiProperty({ format: 'uri', description: 'Where to read this task: its `/result` route.' })
  get!: string;
}

@ApiSchema({ name: 'PredictionTimings' })
export class PredictionTimingsDto {
  @ApiProperty({ type: 'integer', description: 'Milliseconds the model ran (0 until completed).' })
  inference!: number;
}

/** A prediction's `status`: the task states (task-status.constants.ts). */
export const PREDICTION_STATUSES = TASK_STATUSES;
export type PredictionStatus = TaskStatus;

@ApiSchema({ name: 'Prediction' })
export class PredictionDto {
  @ApiProperty({ example: '0f8fad5b-d9cb-469f-a165-70867728950e' })
  id!: string;

  @ApiProperty({ description: 'The model slug.', example: 'local/simulator/test' })
  model!: string;

  @ApiProperty({
    enum: PREDICTION_STATUSES,
    description:
      '`created` right after an asynchronous submit, `processing` until terminal, then `completed` or `failed`.',
  })
  status!: PredictionStatus;

  @ApiProperty({ type: [String], description: 'Output URLs (empty until completed).' })
  outputs!: string[];

  @ApiProperty({ type: PredictionUrlsDto })
  urls!: PredictionUrlsDto;

  @ApiProperty({
    type: [Boolean],
    description: 'One flag per output; genhub does not classify outputs, so always false.',
  })
  has_nsfw_contents!: boolean[];

  @ApiProperty({ description: 'ISO 8601, UTC.', example: '2025-01-31T12:00:00.123Z' })
  created_at!: string;

  @ApiProperty({
    description:
      'Empty unless failed (the failure message), or a sync wait that ran out (`Sync mode timed out…`).',
  })
  error!: string;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'The task error code when failed (1200…5004); 5004 also marks a sync time-out.',
  })
  code?: number;

  @ApiProperty({ type: PredictionTimingsDto })
  timings!: PredictionTimingsDto;
}
