import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Input of `speech-to-text` models: the audio is downloaded first (failure → task code 1402). */
export class SpeechToTextInputDto {
  @ApiProperty({
    description: 'URL of the audio to transcribe (mp3, wav, flac, ogg, m4a, webm; up to 50 MB).',
    maxLength: 2048,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  audio_url!: string;

  @ApiPropertyOptional({
    description: 'Language of the audio as an ISO-639-1 code, e.g. `en`; unset: detected.',
    pattern: '^[a-z]{2}$',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2}$/, { message: 'language must be a two-letter ISO-639-1 code' })
  language?: string;

  @ApiPropertyOptional({
    description: 'Text that guides the style or spelling of the transcript.',
    maxLength: 2000,
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  prompt?: string;
}
