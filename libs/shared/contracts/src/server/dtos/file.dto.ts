import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The multipart body of `POST /api/v3/files/upload`. */
@ApiSchema({ name: 'UploadFileBody' })
export class UploadFileBodyDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description:
      'Image (PNG, JPEG, WebP, GIF ≤ 20 MB), video (MP4, WebM, MOV ≤ 100 MB) or audio (MP3, WAV, FLAC, M4A ≤ 50 MB).',
  })
  file!: unknown;
}

/** `data` of `POST /api/v3/files/upload`. */
@ApiSchema({ name: 'UploadAnswer' })
export class UploadAnswerDto {
  @ApiProperty({
    format: 'uri',
    description: 'A {cdn_url} address usable as a model input; kept 7 days.',
  })
  url!: string;
}
