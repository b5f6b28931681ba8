import {
  ApiProperty,
  ApiPropertyOptional,
  type ApiPropertyOptions,
  ApiSchema,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  MAX_ALLOWED_MODELS,
  MAX_MODEL_PATTERN_LENGTH,
  MODEL_PATTERN,
  SPEND_PERIODS,
  type SpendPeriod,
} from '../../api-key.constants';
import { IsMoneyAmount, MAX_ADMIN_AMOUNT } from './admin.dto';

// API keys with their own limits (issue 37, decision 0134): the operator's calls
// (`/admin/v1/accounts/{id}/api-keys`) and the account's own (`/api/v3/keys`) take
// and give the same settings.

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/** A key's spend limit: what its tasks and chat calls may cost per period, in the account currency. */
@ApiSchema({ name: 'SpendLimit' })
export class SpendLimitDto {
  @ApiProperty({
    minimum: 0,
    exclusiveMinimum: true,
    maximum: MAX_ADMIN_AMOUNT,
    description: 'In the account currency, > 0, at most 6 decimals.',
    example: 5,
  })
  @IsMoneyAmount()
  @IsPositive()
  @Max(MAX_ADMIN_AMOUNT)
  amount!: number;

  @ApiProperty({
    enum: SPEND_PERIODS,
    description: '`day` and `month` are UTC calendar periods; `total` never resets.',
  })
  @IsIn(SPEND_PERIODS)
  period!: SpendPeriod;
}

export {
  API_KEY_SCOPES,
  type ApiKeyScope,
  DEFAULT_API_KEY_SCOPES,
  hasScope,
  modelAllowed,
  SPEND_PERIODS,
  type SpendPeriod,
} from '../../api-key.constants';

const ALLOWED_MODELS_DOC: ApiPropertyOptions = {
  type: [String],
  nullable: true,
  maxItems: MAX_ALLOWED_MODELS,
  description:
    'Model slug patterns the key may use; `*` stands for any characters (`local/*`, `openai/gpt-image-1/*`). Null or absent: every model.',
  example: ['local/*'],
};
const SCOPES_DOC: ApiPropertyOptions = {
  type: 'array',
  items: { type: 'string', enum: [...API_KEY_SCOPES] },
  nullable: true,
  description: 'What the key may do. Null or absent: every scope.',
  example: ['tasks:read', 'billing:read'],
};
const EXPIRES_AT_DOC: ApiPropertyOptions = {
  type: 'string',
  nullable: true,
  description: 'ISO 8601; from then on the key answers 401. Null or absent: never.',
  example: '2026-12-31T23:59:59Z',
};

/**
 * The settings of a key, each optional. In a PATCH an absent field is
 * unchanged and `null` clears it (no limit).
 */
class ApiKeySettingsDto {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: 1,
    maxLength: 100,
    description: 'A label for the key.',
  })
  @ValidateIf((_, value) => value !== null)
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string | null;

  @ApiPropertyOptional(ALLOWED_MODELS_DOC)
  @ValidateIf((_, value) => value !== null)
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWED_MODELS)
  @IsString({ each: true })
  @MaxLength(MAX_MODEL_PATTERN_LENGTH, { each: true })
  @Matches(MODEL_PATTERN, {
    each: true,
    message: 'allowed_models must hold model slug patterns such as local/* or openai/gpt-image-1/*',
  })
  allowed_models?: string[] | null;

  @ApiPropertyOptional({ type: SpendLimitDto, nullable: true })
  @ValidateIf((_, value) => value !== null)
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SpendLimitDto)
  spend_limit?: SpendLimitDto | null;

  @ApiPropertyOptional(EXPIRES_AT_DOC)
  @ValidateIf((_, value) => value !== null)
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  expires_at?: string | null;

  @ApiPropertyOptional(SCOPES_DOC)
  @ValidateIf((_, value) => value !== null)
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(API_KEY_SCOPES, { each: true })
  scopes?: ApiKeyScope[] | null;
}

/** Body of `POST /admin/v1/accounts/{id}/api-keys`; every field optional. */
@ApiSchema({ name: 'AdminCreateApiKeyRequest' })
export class CreateApiKeyDto extends ApiKeySettingsDto {}

/** Body of `POST /api/v3/keys`: a key of the caller's own account, never wider than the caller. */
@ApiSchema({ name: 'CreateApiKeyRequest' })
export class CreateOwnApiKeyDto extends ApiKeySettingsDto {}

/** Body of `PATCH …/api-keys/{key_id}` and `PATCH /api/v3/keys/{key_id}`: absent unchanged, null cleared. */
@ApiSchema({ name: 'UpdateApiKeyRequest' })
export class UpdateApiKeyDto extends ApiKeySettingsDto {}

/** One API key with its settings and spend: never the key or its hash. */
@ApiSchema({ name: 'ApiKey' })
export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'The label given at issue.' })
  name!: string | null;

  @ApiProperty({
    description: "The key's first characters: enough to recognise it, never to use it.",
    example: 'gh_1a2b3c4d',
  })
  prefix!: string;

  @ApiProperty({ enum: API_KEY_STATUSES })
  status!: ApiKeyStatus;

  @ApiProperty(ALLOWED_MODELS_DOC)
  allowed_models!: string[] | null;

  @ApiProperty({ type: SpendLimitDto, nullable: true })
  spend_limit!: SpendLimitDto | null;

  @ApiProperty({
    description:
      "What the key's tasks and chat calls cost (captured, plus reservations still open) in its spend limit's current period; with no limit, since it was issued.",
    example: 0.25,
  })
  spent!: number;

  @ApiProperty(EXPIRES_AT_DOC)
  expires_at!: string | null;

  @ApiProperty(SCOPES_DOC)
  scopes!: ApiKeyScope[] | null;

  @ApiProperty({ description: 'ISO 8601, UTC.', example: '2025-01-31T12:00:00.123Z' })
  created_at!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'When it was revoked (ISO 8601, UTC); null while not.',
  })
  revoked_at!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'When it last authenticated a request (ISO 8601, UTC; written at most once a minute); null if never.',
  })
  last_used_at!: string | null;
}

/** One API key of an account, as the operator sees it. */
@ApiSchema({ name: 'AdminApiKey' })
export class AdminApiKeyDto extends ApiKeyDto {}

/** Answer of `POST /admin/v1/accounts/{id}/api-keys`: the key with the plain key, returned once. */
@ApiSchema({ name: 'AdminIssuedApiKey' })
export class IssuedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The plain API key, shown once; it is stored only as a hash.' })
  key!: string;
}

/** `data` of `POST /api/v3/keys`: the key with the plain key, returned once. */
@ApiSchema({ name: 'IssuedOwnApiKey' })
export class IssuedOwnApiKeyDto extends IssuedApiKeyDto {}

/** Answer of `GET /admin/v1/accounts/{id}/api-keys`. */
@ApiSchema({ name: 'AdminApiKeyList' })
export class AdminApiKeyListDto {
  @ApiProperty({ type: [AdminApiKeyDto], description: 'Newest first, revoked keys included.' })
  data!: AdminApiKeyDto[];
}
