import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

// The OpenAI-compatible media routes (decision 0136): OpenAI's request fields as its SDK sends
// them, mapped by the gateway onto a genhub model's input (docs/api-guide.md, "Using the openai
// SDK for images and audio"). A field OpenAI knows but no genhub model takes is accepted and
// ignored where the docs say so, so a client written for OpenAI is not refused for it.

export const IMAGE_RESPONSE_FORMATS = ['url', 'b64_json'] as const;
export const SPEECH_RESPONSE_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export const TRANSCRIPTION_RESPONSE_FORMATS = [
  'json',
  'text',
  'srt',
  'verbose_json',
  'vtt',
] as const;

/** `POST /v1/images/generations`. */
@ApiSchema({ name: 'ImageGenerationRequest' })
export class ImageGenerationRequestDto {
  @ApiProperty({
    description: 'A genhub text-to-image model by its full slug, e.g. `local/image/text-to-image`.',
    example: 'local/image/text-to-image',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  model!: string;

  @ApiProperty({ description: 'The model’s `prompt`.', maxLength: 4000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4000)
  prompt!: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 4,
    default: 1,
    description: 'The model’s `num_outputs`.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(4)
  n?: number;

  @ApiPropertyOptional({
    description:
      '`WIDTHxHEIGHT` (or `auto`): the long side becomes `resolution` (512, 1024 or 2048), the ratio `aspect_ratio` (1:1, 16:9, 9:16, 4:3, 3:4, 3:2, 2:3); OpenAI’s 1792×1024 and 1024×1792 are taken as 16:9 and 9:16 at 2048.',
    example: '1024x1024',
  })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  size?: string;

  @ApiPropertyOptional({ enum: [...IMAGE_RESPONSE_FORMATS], default: 'url' })
  @IsOptional()
  @IsIn([...IMAGE_RESPONSE_FORMATS])
  response_format?: (typeof IMAGE_RESPONSE_FORMATS)[number];

  @ApiPropertyOptional({
    enum: ['png', 'jpeg', 'webp'],
    description: 'The model’s `output_format`.',
  })
  @IsOptional()
  @IsIn(['png', 'jpeg', 'webp'])
  output_format?: 'png' | 'jpeg' | 'webp';

  @ApiPropertyOptional({ description: 'Accepted and ignored.' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  quality?: string;

  @ApiPropertyOptional({ description: 'Accepted and ignored.' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  style?: string;

  @ApiPropertyOptional({ description: 'Accepted and ignored.' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  user?: string;
}

/** One image of an images answer: a URL or the bytes in base64, as asked. */
@ApiSchema({ name: 'ImageData' })
export class ImageDataDto {
  @ApiPropertyOptional({ description: 'With `response_format: url`: the image on the CDN.' })
  url?: string;

  @ApiPropertyOptional({ description: 'With `response_format: b64_json`: the image bytes.' })
  b64_json?: string;

  @ApiPropertyOptional({ description: 'The prompt the model drew (genhub does not rewrite it).' })
  revised_prompt?: string;
}

/** The answer of `POST /v1/images/generations`. */
@ApiSchema({ name: 'ImageGeneration' })
export class ImageGenerationDto {
  @ApiProperty({ description: 'Unix seconds.', example: 1735689600 })
  created!: number;

  @ApiProperty({ type: () => [ImageDataDto] })
  data!: ImageDataDto[];
}

/** `POST /v1/audio/speech`. */
@ApiSchema({ name: 'SpeechRequest' })
export class SpeechRequestDto {
  @ApiProperty({
    description: 'A genhub text-to-speech model by its full slug.',
    example: 'local/speech/text-to-speech',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  model!: string;

  @ApiProperty({ description: 'The model’s `text`.', maxLength: 5000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(5000)
  input!: string;

  @ApiPropertyOptional({
    description:
      'A voice the model knows (`en`, `en-us`, `fr`, `de`, `es`, `it`, `pt`, `nl`) is passed as its `voice`; OpenAI’s voice names (`alloy`, `echo`, `nova`…) leave the model’s default.',
    example: 'alloy',
  })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  voice?: string;

  @ApiPropertyOptional({
    enum: [...SPEECH_RESPONSE_FORMATS],
    description: 'Only `wav` is produced; unset, the answer is WAV too. Others: 400.',
  })
  @IsOptional()
  @IsIn([...SPEECH_RESPONSE_FORMATS])
  response_format?: (typeof SPEECH_RESPONSE_FORMATS)[number];

  @ApiPropertyOptional({
    minimum: 0.25,
    maximum: 4,
    default: 1,
    description: 'Times the model’s 175 words per minute, as its `speed` (80 to 450).',
  })
  @IsOptional()
  @IsNumber()
  @Min(0.25)
  @Max(4)
  speed?: number;

  @ApiPropertyOptional({ description: 'Accepted and ignored.' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  instructions?: string;
}

/** The multipart form of `POST /v1/audio/transcriptions` (documentation only: read by hand). */
@ApiSchema({ name: 'TranscriptionRequest' })
export class TranscriptionRequestDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description: 'The audio: MP3, WAV, FLAC or M4A, at most 25 MB.',
  })
  file!: unknown;

  @ApiProperty({ description: 'A genhub speech-to-text model by its full slug.' })
  model!: string;

  @ApiPropertyOptional({
    enum: [...TRANSCRIPTION_RESPONSE_FORMATS],
    description: '`json` (default) answers `{text}`, `text` the bare text; others: 400.',
  })
  response_format?: string;

  @ApiPropertyOptional({ description: 'The model’s `language` (ISO-639-1).' })
  language?: string;

  @ApiPropertyOptional({ description: 'The model’s `prompt`.' })
  prompt?: string;

  @ApiPropertyOptional({ description: 'Accepted and ignored.' })
  temperature?: string;
}

/** The answer of `POST /v1/audio/transcriptions` with `response_format: json`. */
@ApiSchema({ name: 'Transcription' })
export class TranscriptionDto {
  @ApiProperty({ example: 'Hello from genhub.' })
  text!: string;
}
