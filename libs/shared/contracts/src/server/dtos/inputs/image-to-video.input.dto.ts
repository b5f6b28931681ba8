import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
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
import { ASPECT_RATIOS, AspectRatio, ModelInputBaseDto } from './model-input-base.dto';

export const ANIMATION_FORMATS = ['webp', 'gif'] as const;
export type AnimationFormat = (typeof ANIMATION_FORMATS)[number];

/** Input of an image-to-video (or text-to-video) model. */
@ApiSchema({ name: 'ImageToVideoInput' })
export class ImageToVideoInputDto extends ModelInputBaseDto {
  @ApiProperty({ description: 'Text description of the video.', minLength: 1, maxLength: 4000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4000)
  prompt!: string;

  @ApiPropertyOptional({
    format: 'uri',
    maxLength: 2048,
    description:
      'The image to animate (unreachable, over 20 MB or not an image → task code 1402). Without it the first frame is drawn from the prompt.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  image_url?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 10,
    default: 3,
    description: 'Video length in seconds.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  duration?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 4,
    maximum: 24,
    default: 8,
    description: 'Frames per second.',
  })
  @IsOptional()
  @IsInt()
  @Min(4)
  @Max(24)
  fps?: number;

  @ApiPropertyOptional({
    enum: [...ANIMATION_FORMATS],
    default: 'webp',
    description: 'Animated output format.',
  })
  @IsOptional()
  @IsIn([...ANIMATION_FORMATS])
  output_format?: AnimationFormat;

  @ApiPropertyOptional({
    enum: [...ASPECT_RATIOS],
    default: '16:9',
    description: 'Output framing, width:height.',
  })
  @IsOptional()
  @IsIn([...ASPECT_RATIOS])
  aspect_ratio?: AspectRatio;
}
