import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min } from 'class-validator';
import { TASK_FAILURE_CODES, TaskFailureCode } from '@genhub/errors';

/** Input of `local/simulator/test` (extensions.md §4). */
export class SimulatorInputDto {
  @IsString()
  @IsNotEmpty()
  prompt!: string;

  /** Time the task spends processing. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600_000)
  duration_ms?: number;

  /** The task fails with this code and the catalogue's meaning text. */
  @IsOptional()
  @IsIn(TASK_FAILURE_CODES)
  fail_code?: TaskFailureCode;

  /** PNG images produced. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(4)
  num_outputs?: number;

  /** An input image downloaded first, as real models do (failure → 1402). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  image_url?: string;

  /** Same prompt and seed → the same images. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  seed?: number;
}
