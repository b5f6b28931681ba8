import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ASPECT_RATIOS, AspectRatio, ModelInputBaseDto } from './model-input-base.dto';

/** Long side of the image in pixels. */
export const IMAGE_RESOLUTIONS = ['512', '1024', '2048'] as const;
export type ImageResolution = (typeof IMAGE_RESOLUTIONS)[number];

export const IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Input of a text-to-image model. */
@ApiSchema({ name: 'TextToImageInput' })
export class TextToImageInputDto extends ModelInputBaseDto {
  @ApiProperty({ description: 'Text description of the image.', minLength: 1, maxLength: 4000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4000)
  prompt!: string;

  @ApiPropertyOptional({ description: 'What the image should avoid.', maxLength: 4000 })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  negative_prompt?: string;

  @ApiPropertyOptional({
    enum: [...ASPECT_RATIOS],
    default: '1:1',
    description: 'Output framing, width:height.',
  })
  @IsOptional()
  @IsIn([...ASPECT_RATIOS])
  aspect_ratio?: AspectRatio;

  @ApiPropertyOptional({
    enum: [...IMAGE_RESOLUTIONS],
    default: '1024',
    description: 'Length of the long side in pixels; the short side follows aspect_ratio.',
  })
  @IsOptional()
  @IsIn([...IMAGE_RESOLUTIONS])
  resolution?: ImageResolution;

  @ApiPropertyOptional({
    enum: [...IMAGE_FORMATS],
    default: 'png',
    description: 'Output file format.',
  })
  @IsOptional()
  @IsIn([...IMAGE_FORMATS])
  output_format?: ImageFormat;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 4,
    default: 1,
    description: 'Images produced.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(4)
  num_outputs?: number;
}
