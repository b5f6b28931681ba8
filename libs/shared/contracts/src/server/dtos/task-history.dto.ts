import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { PREDICTION_STATUSES, type PredictionStatus } from './prediction.dto';
import { TimingsDto } from './task.dto';

/** Query of `GET /api/v3/predictions`: filters and a keyset page. */
@ApiSchema({ name: 'ListTasksQuery' })
export class ListTasksQueryDto {
  @ApiPropertyOptional({ enum: PREDICTION_STATUSES, description: 'Only tasks in this status.' })
  @IsOptional()
  @IsIn([...PREDICTION_STATUSES])
  status?: PredictionStatus;

  @ApiPropertyOptional({
    maxLength: 200,
    example: 'local/simulator',
    description: 'A model slug, or the start of one (`local/` lists every local model).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9._/-]+$/, { message: 'model must be a slug or the start of one' })
  model?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only tasks created after this instant.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  created_after?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only tasks created before this instant.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  created_before?: string;

  @ApiPropertyOptional({ description: '`next_cursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({
    enum: ['input'],
    description: '`input`: each item carries the task’s input.',
  })
  @IsOptional()
  @IsIn(['input'])
  include?: 'input';
}

/** One task of the history: its public view. */
@ApiSchema({ name: 'TaskListItem' })
export class TaskListItemDto {
  @ApiProperty({ example: '0f8fad5b-d9cb-469f-a165-70867728950e' })
  id!: string;

  @ApiProperty({ example: 'local/simulator/test' })
  model!: string;

  @ApiProperty({ enum: PREDICTION_STATUSES })
  status!: PredictionStatus;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: '0 when completed, the task error code when failed, null before.',
  })
  code!: number | null;

  @ApiProperty({ type: [String], description: 'Output URLs (empty unless completed).' })
  outputs!: string[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The failure message; null otherwise.',
  })
  error!: string | null;

  @ApiProperty({ description: 'ISO 8601, UTC.', example: '2025-01-31T12:00:00.123Z' })
  created_at!: string;

  @ApiPropertyOptional({ type: TimingsDto, description: 'When completed.' })
  timings?: TimingsDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The task’s input, with `include=input`.',
  })
  input?: Record<string, unknown>;
}

@ApiSchema({ name: 'TaskListPage' })
export class TaskListPageDto {
  @ApiProperty({ type: [TaskListItemDto], description: 'Newest first.' })
  items!: TaskListItemDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
  })
  next_cursor!: string | null;
}
