import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';

/** Inner business error of a /v1/ error body (unknown provider 1401, insufficient balance 1300). */
@ApiSchema({ name: 'V1NestedError' })
export class V1NestedErrorDto {
  @ApiProperty({ type: 'integer', description: 'Business error code.', example: 1401 })
  code!: number;

  @ApiProperty({ example: 'Invalid provider' })
  error!: string;
}

/** HTTP error body of the `/v1/` endpoints: `{code, error}`; parse `error` defensively. */
@ApiSchema({ name: 'V1Error' })
export class V1ErrorDto {
  @ApiProperty({
    type: 'integer',
    description: 'HTTP status, equal to the response status.',
    example: 401,
  })
  code!: number;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { $ref: getSchemaPath('V1NestedError') }],
    description: 'Message, or a nested object with its own business `code` and `error`.',
  })
  error!: string | V1NestedErrorDto;
}

/** HTTP error body of the `/api/v3/` endpoints: the envelope with `data: null`. */
@ApiSchema({ name: 'V3Error' })
export class V3ErrorDto {
  @ApiProperty({
    type: 'integer',
    description: 'HTTP status, equal to the response status.',
    example: 404,
  })
  code!: number;

  @ApiProperty({ description: 'Error message.', example: 'Not found' })
  message!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: false,
    nullable: true,
    description: 'Always null.',
  })
  data!: null;
}

/** The `error` of a chat-family error body. */
@ApiSchema({ name: 'ChatErrorDetail' })
export class ChatErrorDetailDto {
  @ApiProperty({ example: 'messages must be an array' })
  message!: string;

  @ApiProperty({ example: 'invalid_request_error' })
  type!: string;

  @ApiProperty({ type: String, nullable: true, example: 'messages' })
  param!: string | null;

  @ApiPropertyOptional({
    example: 'model_not_found',
    description:
      "OpenAI's error code, on the images and audio routes only (`insufficient_quota`, `model_not_found`, `invalid_request`, `scope_not_allowed`, `model_not_allowed`, `sync_wait_expired`…): what the openai SDK shows as `APIError.code`.",
  })
  code?: string;
}

/** Error body of `POST /v1/chat/completions` and `GET /v1/models[/{model}]` once authenticated. */
@ApiSchema({ name: 'ChatError' })
export class ChatErrorDto {
  @ApiProperty({ type: () => ChatErrorDetailDto })
  error!: ChatErrorDetailDto;
}

/** Error body of the Replicate-compatible routes (`/replicate/v1/`): Replicate's problem object. */
@ApiSchema({ name: 'ReplicateError' })
export class ReplicateErrorDto {
  @ApiProperty({ description: 'What kind of refusal, in Replicate’s words.', example: 'Not found' })
  title!: string;

  @ApiProperty({ description: 'The error message.', example: 'Not found' })
  detail!: string;

  @ApiProperty({ type: 'integer', description: 'HTTP status, equal to the response status.' })
  status!: number;
}
