import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
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
  ValidateNested,
} from 'class-validator';

/** One chat message (OpenAI-compatible subset: text content only). */
@ApiSchema({ name: 'ChatMessage' })
export class ChatMessageDto {
  @ApiProperty({ enum: ['system', 'user', 'assistant'] })
  @IsIn(['system', 'user', 'assistant'])
  role!: 'system' | 'user' | 'assistant';

  @ApiProperty({ maxLength: 100000 })
  @IsString()
  @MaxLength(100000)
  content!: string;
}

/** Body of `POST /v1/chat/completions` (OpenAI-compatible subset, no streaming). */
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

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  max_tokens?: number;

  @ApiPropertyOptional({ enum: [false], description: 'Streaming is not supported; only `false`.' })
  @IsOptional()
  @IsBoolean()
  @IsIn([false])
  stream?: false;

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

  @ApiProperty({ type: () => ChatMessageDto })
  message!: ChatMessageDto;

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
