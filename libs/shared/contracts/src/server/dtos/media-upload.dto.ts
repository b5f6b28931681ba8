import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';

/** Body of `POST /api/v3/media/uploads`: what the client is about to upload. */
@ApiSchema({ name: 'MediaUploadRequest' })
export class MediaUploadRequestDto {
  @ApiProperty({
    maxLength: 255,
    example: 'cat.png',
    description: 'The file name (its extension may give the type).',
  })
  @IsString()
  @MaxLength(255)
  @Matches(/^[^/\\\0]+$/, { message: 'filename must be a plain file name' })
  filename!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The exact size in bytes; the upload must match it.',
  })
  @IsInt()
  @Min(1)
  size!: number;

  @ApiPropertyOptional({
    example: 'image/png',
    description: 'The MIME type; when absent, taken from the file name’s extension.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  content_type?: string;
}

@ApiSchema({ name: 'MediaUploadInstruction' })
export class MediaUploadInstructionDto {
  @ApiProperty({
    format: 'uri',
    description: 'Signed, single-use, expiring: PUT the raw bytes here.',
  })
  url!: string;

  @ApiProperty({ enum: ['PUT'] })
  method!: 'PUT';

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Headers to send with the PUT, exactly (the signature binds them).',
    example: { 'Content-Type': 'image/png' },
  })
  headers!: Record<string, string>;
}

/** `data` of `POST /api/v3/media/uploads`. */
@ApiSchema({ name: 'MediaUploadTicket' })
export class MediaUploadTicketDto {
  @ApiProperty({
    format: 'uri',
    description:
      'The file’s address once uploaded and checked: usable as a model input; kept 7 days like any upload.',
  })
  download_url!: string;

  @ApiProperty({ type: MediaUploadInstructionDto })
  upload!: MediaUploadInstructionDto;

  @ApiProperty({ description: 'ISO 8601, UTC: the upload URL stops working then (15 minutes).' })
  expires_at!: string;
}
