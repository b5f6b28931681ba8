import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TASK_FAILURE_CODES, TaskFailureCode } from '@genhub/errors';
import { ModelInputBaseDto } from './inputs/model-input-base.dto';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** Query of `GET /api/v3/models`. */
@ApiSchema({ name: 'ListModelsQuery' })
export class ListModelsQueryDto {
  @ApiPropertyOptional({ description: 'Filter by category.', example: 'text-to-image' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  @ApiPropertyOptional({ description: 'Filter by provider.', example: 'local' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  provider?: string;

  @ApiPropertyOptional({ description: 'Search by name or description.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}

/** An entry of the model listing (docs/interface.md, "Model entry" and "Billing semantics"). */
@ApiSchema({ name: 'ModelEntry' })
export class ModelEntryDto {
  @ApiProperty({ description: '`<provider>/<model>`', example: 'local/simulator' })
  id!: string;

  @ApiProperty({ example: 'Simulator' })
  name!: string;

  @ApiProperty({ example: 'local' })
  provider!: string;

  @ApiProperty({ example: 'test' })
  category!: string;

  @ApiProperty({ example: 'A built-in model that exercises every path of a client.' })
  description!: string;

  @ApiProperty({
    type: [String],
    description: 'Run types accepted after the model id (the last slug segment).',
    example: ['test'],
  })
  run_types!: string[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: "Price per task by channel (service tier), in the account's currency.",
    example: { stable: 0.001 },
  })
  pricing!: Record<string, number>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: true },
    description:
      'The input each run type takes, as an OpenAPI 3.0 schema object with its references resolved: required fields, types, ranges and enums, enough to validate an input or build a form.',
    example: {
      test: {
        type: 'object',
        required: ['prompt'],
        properties: { prompt: { type: 'string', minLength: 1, maxLength: 10000 } },
      },
    },
  })
  input_schemas!: Record<string, Record<string, unknown>>;
}

/**
 * Input of `local/simulator/test` (docs/interface.md, "Simulator model"). The one
 * definition: the providers lib validates the simulator's input with this class.
 */
@ApiSchema({ name: 'SimulatorInput' })
export class SimulatorInputDto extends ModelInputBaseDto {
  @ApiProperty({ description: 'Text description of the output.', minLength: 1, maxLength: 10000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10000)
  prompt!: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 600000,
    default: 0,
    description: 'Time the task spends processing, in milliseconds.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600000)
  duration_ms?: number;

  @ApiPropertyOptional({
    type: 'integer',
    enum: [...TASK_FAILURE_CODES],
    description: "The task fails with this code and the catalogue's meaning text as `error`.",
  })
  @IsOptional()
  @IsInt()
  @IsIn([...TASK_FAILURE_CODES])
  fail_code?: TaskFailureCode;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 4,
    default: 1,
    description: 'PNG images produced.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(4)
  num_outputs?: number;

  @ApiPropertyOptional({
    format: 'uri',
    maxLength: 2048,
    description:
      'An input image the task downloads first (unreachable, over 20 MB or not an image → task code 1402).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  image_url?: string;
}
