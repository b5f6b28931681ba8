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
import { ModelInputBaseDto } from './model-input-base.dto';

/** eSpeak-NG voices verified to synthesize (language codes). */
export const SPEECH_VOICES = ['en', 'en-us', 'fr', 'de', 'es', 'it', 'pt', 'nl'] as const;
export type SpeechVoice = (typeof SPEECH_VOICES)[number];

export const MIN_SPEECH_WPM = 80;
export const MAX_SPEECH_WPM = 450;

/** Input of a text-to-speech model. */
@ApiSchema({ name: 'TextToSpeechInput' })
export class TextToSpeechInputDto extends ModelInputBaseDto {
  @ApiProperty({ description: 'The text to speak.', minLength: 1, maxLength: 5000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(5000)
  text!: string;

  @ApiPropertyOptional({
    enum: [...SPEECH_VOICES],
    default: 'en',
    description: 'Voice (language).',
  })
  @IsOptional()
  @IsIn([...SPEECH_VOICES])
  voice?: SpeechVoice;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_SPEECH_WPM,
    maximum: MAX_SPEECH_WPM,
    default: 175,
    description: 'Speaking rate in words per minute.',
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_SPEECH_WPM)
  @Max(MAX_SPEECH_WPM)
  speed?: number;
}
