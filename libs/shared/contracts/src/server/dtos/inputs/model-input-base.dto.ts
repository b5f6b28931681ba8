import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min, MaxLength } from 'class-validator';

/** The largest accepted seed: a PostgreSQL/JSON-safe 32-bit integer. */
export const MAX_SEED = 2_147_483_647;

/** Output framings (width:height) the generators accept. */
export const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/**
 * Fields every generator input shares: `seed` makes the output reproducible,
 * `channel` picks the price tier (read at submit, never passed to the model).
 */
export abstract class ModelInputBaseDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_SEED,
    default: 0,
    description: 'Seed for reproducibility: the same input and seed give the same bytes.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SEED)
  seed?: number;

  @ApiPropertyOptional({ description: 'Service tier.', example: 'stable' })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  channel?: string;
}
