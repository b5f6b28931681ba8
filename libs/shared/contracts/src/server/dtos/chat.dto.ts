import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateNested,
} from 'class-validator';
import { ChatContentConstraint, joinTextParts, MAX_CHAT_CONTENT } from './chat-content.validator';

/** One text part of a message's content. */
@ApiSchema({ name: 'ChatTextPart' })
export class ChatTextPartDto {
  @ApiProperty({ enum: ['text'] })
  type!: 'text';

  @ApiProperty()
  text!: string;
}

/** One chat message (OpenAI-compatible subset: text content, as a string or text parts). */
@ApiSchema({ name: 'ChatMessage' })
export class ChatMessageDto {
  @ApiProperty({ enum: ['system', 'developer', 'user', 'assistant'] })
  @IsIn(['system', 'developer', 'user', 'assistant'])
  role!: 'system' | 'developer' | 'user' | 'assistant';

  @ApiProperty({
    oneOf: [
      { type: 'string', maxLength: MAX_CHAT_CONTENT },
      { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/ChatTextPart' } },
    ],
    description:
      'A string, or text parts (`{"type":"text","text":…}`), which are joined with newlines. ' +
      'Other part types (`image_url`, `input_audio`, `file`) are refused with a 400 naming them.',
  })
  // Text parts become one string before validation; what is left explains itself.
  @Transform(({ value }: { value: unknown }) => joinTextParts(value))
  @Validate(ChatContentConstraint)
  content!: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'Participant name.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  name?: string;
}

/** The answer's message: always the assistant's, its content always a string. */
@ApiSchema({ name: 'ChatCompletionMessage' })
export class ChatCompletionMessageDto {
  @ApiProperty({ enum: ['assistant'] })
  role!: 'assistant';

  @ApiProperty()
  content!: string;
}

/** `stream_options` of a streaming request. */
@ApiSchema({ name: 'ChatStreamOptions' })
export class ChatStreamOptionsDto {
  @ApiPropertyOptional({
    description: 'Send one last chunk with `usage` (and empty `choices`) before `data: [DONE]`.',
  })
  @IsOptional()
  @IsBoolean()
  include_usage?: boolean;
}

/** Body of `POST /v1/chat/completions` (OpenAI-compatible subset: text messages, one choice). */
@ApiSchema({ name: 'ChatCompletionRequest' })
export class ChatCompletionRequestDto {
  @ApiProperty({ description: 'A chat model id from `GET /v1/models`.' })
  @IsString()
  @IsNotEmpty()
  model!: string;

  @ApiProperty({ type: () => [ChatMessageDto], minItems: 1 })
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => ChatMessageDto)
  messages!: ChatMessageDto[];

  @ApiPropertyOptional({ minimum: 0, maximum: 2 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(2)
  temperature?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  top_p?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000000,
    description: 'Completion token limit; without it (or `max_completion_tokens`) the cap is 4096.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  max_tokens?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000000,
    description: 'Newer name of `max_tokens`; wins when both are given.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  max_completion_tokens?: number;

  @ApiPropertyOptional({
    type: 'integer',
    enum: [1],
    description: 'Number of choices; only 1 is supported.',
  })
  @IsOptional()
  @IsIn([1], { message: 'n must be 1 (one choice per request)' })
  n?: 1;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 4 }],
    description: 'Up to four sequences; the text ends before the first one generated.',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray({ message: 'stop must be a string or an array of strings' })
  @ArrayMaxSize(4)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  stop?: string[];

  @ApiPropertyOptional({ minimum: -2, maximum: 2 })
  @IsOptional()
  @IsNumber()
  @Min(-2)
  @Max(2)
  presence_penalty?: number;

  @ApiPropertyOptional({ minimum: -2, maximum: 2 })
  @IsOptional()
  @IsNumber()
  @Min(-2)
  @Max(2)
  frequency_penalty?: number;

  @ApiPropertyOptional({ type: 'integer' })
  @IsOptional()
  @IsInt()
  seed?: number;

  @ApiPropertyOptional({
    description:
      'When true the answer is `text/event-stream`: `chat.completion.chunk` events, then `data: [DONE]`.',
  })
  @IsOptional()
  @IsBoolean()
  stream?: boolean;

  @ApiPropertyOptional({ type: () => ChatStreamOptionsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ChatStreamOptionsDto)
  stream_options?: ChatStreamOptionsDto;

  @ApiPropertyOptional({ description: 'End-user identifier, recorded as given.' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  user?: string;
}

@ApiSchema({ name: 'ChatCompletionChoice' })
export class ChatCompletionChoiceDto {
  @ApiProperty({ type: 'integer' })
  index!: number;

  @ApiProperty({ type: () => ChatCompletionMessageDto })
  message!: ChatCompletionMessageDto;

  @ApiProperty({ enum: ['stop', 'length', 'content_filter'] })
  finish_reason!: 'stop' | 'length' | 'content_filter';
}

@ApiSchema({ name: 'ChatCompletionUsage' })
export class ChatCompletionUsageDto {
  @ApiProperty({ type: 'integer' })
  prompt_tokens!: number;

  @ApiProperty({ type: 'integer' })
  completion_tokens!: number;

  @ApiProperty({ type: 'integer' })
  total_tokens!: number;
}

/** Answer of `POST /v1/chat/completions`. */
@ApiSchema({ name: 'ChatCompletion' })
export class ChatCompletionDto {
  @ApiProperty({ example: 'chatcmpl-0f8fad5b' })
  id!: string;

  @ApiProperty({ enum: ['chat.completion'] })
  object!: 'chat.completion';

  @ApiProperty({ type: 'integer', description: 'Unix seconds.' })
  created!: number;

  @ApiProperty()
  model!: string;

  @ApiProperty({ type: () => [ChatCompletionChoiceDto] })
  choices!: ChatCompletionChoiceDto[];

  @ApiProperty({ type: () => ChatCompletionUsageDto })
  usage!: ChatCompletionUsageDto;
}

/** The new text of a streamed choice (`role` on the first chunk only). */
@ApiSchema({ name: 'ChatCompletionDelta' })
export class ChatCompletionDeltaDto {
  @ApiPropertyOptional({ enum: ['assistant'] })
  role?: 'assistant';

  @ApiPropertyOptional()
  content?: string;
}

@ApiSchema({ name: 'ChatCompletionChunkChoice' })
export class ChatCompletionChunkChoiceDto {
  @ApiProperty({ type: 'integer' })
  index!: number;

  @ApiProperty({ type: () => ChatCompletionDeltaDto })
  delta!: ChatCompletionDeltaDto;

  @ApiProperty({
    enum: ['stop', 'length', 'content_filter', null],
    nullable: true,
    description: 'Null until the last content chunk.',
  })
  finish_reason!: 'stop' | 'length' | 'content_filter' | null;
}

/** One `data:` event of a streamed `POST /v1/chat/completions`. */
@ApiSchema({ name: 'ChatCompletionChunk' })
export class ChatCompletionChunkDto {
  @ApiProperty({ description: 'The same on every chunk of one completion.' })
  id!: string;

  @ApiProperty({ enum: ['chat.completion.chunk'] })
  object!: 'chat.completion.chunk';

  @ApiProperty({ type: 'integer', description: 'Unix seconds.' })
  created!: number;

  @ApiProperty()
  model!: string;

  @ApiProperty({
    type: () => [ChatCompletionChunkChoiceDto],
    description: 'Empty on the usage chunk.',
  })
  choices!: ChatCompletionChunkChoiceDto[];

  @ApiPropertyOptional({
    type: () => ChatCompletionUsageDto,
    description: 'Only on the last chunk, when `stream_options.include_usage` is true.',
  })
  usage?: ChatCompletionUsageDto;
}

/** An entry of `GET /v1/models`. */
@ApiSchema({ name: 'ChatModel' })
export class ChatModelDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ enum: ['model'] })
  object!: 'model';

  @ApiProperty({ type: 'integer', description: 'Unix seconds.' })
  created!: number;

  @ApiProperty()
  owned_by!: string;
}

/** Answer of `GET /v1/models`. */
@ApiSchema({ name: 'ChatModelList' })
export class ChatModelListDto {
  @ApiProperty({ enum: ['list'] })
  object!: 'list';

  @ApiProperty({ type: () => [ChatModelDto] })
  data!: ChatModelDto[];
}
