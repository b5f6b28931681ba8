import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { CURRENCIES, type Currency, DEFAULT_CURRENCY, toMicros } from '@genhub/money';
import {
  ACCOUNT_LEVELS,
  ACCOUNT_STATUSES,
  type AccountLevel,
  type AccountStatus,
  DEFAULT_ACCOUNT_LEVEL,
  MAX_CONCURRENT_TASKS_LIMIT,
} from '../../account.constants';

export {
  ACCOUNT_LEVELS,
  ACCOUNT_STATUSES,
  type AccountLevel,
  type AccountStatus,
  DEFAULT_ACCOUNT_LEVEL,
  MAX_CONCURRENT_TASKS_LIMIT,
};

/** Largest amount accepted in one admin call (far below the micro-unit safe-integer limit). */
export const MAX_ADMIN_AMOUNT = 1_000_000_000;

function isMoneyAmount(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  try {
    toMicros(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A JSON number with at most 6 decimals (micro-units). class-validator's own
 * `maxDecimalPlaces` throws on exponent notation such as 1e-7, hence this one.
 */
export function IsMoneyAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMoneyAmount',
      validator: {
        validate: isMoneyAmount,
        defaultMessage: (args) => `${args?.property} must be a number with at most 6 decimals`,
      },
    },
    options,
  );
}

/** Body of `POST /admin/v1/accounts` (docs/interface.md, "Admin API"); every field optional. */
@ApiSchema({ name: 'AdminCreateAccountRequest' })
export class CreateAccountDto {
  @ApiPropertyOptional({ enum: CURRENCIES, default: DEFAULT_CURRENCY })
  @IsOptional()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @ApiPropertyOptional({ enum: ACCOUNT_LEVELS, default: DEFAULT_ACCOUNT_LEVEL })
  @IsOptional()
  @IsIn(ACCOUNT_LEVELS)
  account_level?: AccountLevel;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_ADMIN_AMOUNT,
    default: 0,
    description:
      "Opening balance, at most 6 decimals; a positive one is the account's first top-up record.",
  })
  @IsOptional()
  @IsMoneyAmount()
  @Min(0)
  @Max(MAX_ADMIN_AMOUNT)
  balance?: number;
}

/**
 * Body of `PATCH /admin/v1/accounts/{id}`: the fields given are changed, the others kept.
 * `max_concurrent_tasks: null` removes the cap; `account_level` cannot be null.
 */
@ApiSchema({ name: 'AdminUpdateAccountRequest' })
export class UpdateAccountDto {
  @ApiPropertyOptional({
    enum: ACCOUNT_LEVELS,
    description: "The account's level: its weight when accounts share the workers.",
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(ACCOUNT_LEVELS)
  account_level?: AccountLevel;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_CONCURRENT_TASKS_LIMIT,
    description:
      "At most this many of the account's tasks run at once; its others wait aside while other accounts' run. `null` removes the cap (the default: no cap).",
    example: 10,
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsInt()
  @Min(1)
  @Max(MAX_CONCURRENT_TASKS_LIMIT)
  max_concurrent_tasks?: number | null;
}

/** Body of `POST /admin/v1/accounts/{id}/top-ups`. */
@ApiSchema({ name: 'AdminTopUpRequest' })
export class TopUpDto {
  @ApiProperty({
    exclusiveMinimum: true,
    minimum: 0,
    maximum: MAX_ADMIN_AMOUNT,
    description: 'Amount in the account currency, > 0, at most 6 decimals.',
    example: 10,
  })
  @IsMoneyAmount()
  @IsPositive()
  @Max(MAX_ADMIN_AMOUNT)
  amount!: number;
}

/** The admin account object. `balance` is net of reservations, as in `GET /v1/balance`. */
@ApiSchema({ name: 'AdminAccount' })
export class AdminAccountDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: CURRENCIES })
  currency!: Currency;

  @ApiProperty({ enum: ACCOUNT_LEVELS })
  account_level!: AccountLevel;

  @ApiProperty({ description: 'Balance net of reservations.', example: 10 })
  balance!: number;

  @ApiProperty({ description: 'Open reservations of running tasks.', example: 0 })
  reserved!: number;

  @ApiProperty({ enum: ACCOUNT_STATUSES })
  status!: AccountStatus;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_CONCURRENT_TASKS_LIMIT,
    description:
      "The operator's cap on the account's tasks running at once; `null`: no cap (the default).",
    example: null,
  })
  max_concurrent_tasks!: number | null;

  @ApiPropertyOptional({
    description: 'Standard Webhooks signing key (`whsec_` + base64); only in the creation answer.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  webhook_secret?: string;
}

/** Answer of `DELETE /admin/v1/api-keys/{keyId}`. */
@ApiSchema({ name: 'AdminRevokedApiKey' })
export class RevokedApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: ['revoked'] })
  status!: 'revoked';
}

/** Answer of `POST /admin/v1/accounts/{id}/webhook-secret` (decision 0066). */
@ApiSchema({ name: 'AdminRotatedWebhookSecret' })
export class RotatedWebhookSecretDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({
    description: 'The new Standard Webhooks signing key; the old one stops signing at once.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  webhook_secret!: string;
}

/** Query of `GET /admin/v1/accounts` (decision 0116): a status filter and a keyset page. */
@ApiSchema({ name: 'AdminListAccountsQuery' })
export class ListAccountsQueryDto {
  @ApiPropertyOptional({ enum: ACCOUNT_STATUSES, description: 'Only accounts in this status.' })
  @IsOptional()
  @IsIn(ACCOUNT_STATUSES)
  status?: AccountStatus;

  @ApiPropertyOptional({ description: '`next_cursor` of the previous page, as it was given.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/** Answer of `GET /admin/v1/accounts`: one page of accounts, newest first. */
@ApiSchema({ name: 'AdminAccountPage' })
export class AdminAccountPageDto {
  @ApiProperty({
    type: [AdminAccountDto],
    description: 'Newest first; each as `GET /admin/v1/accounts/{id}` answers it.',
  })
  data!: AdminAccountDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
  })
  next_cursor!: string | null;
}

/** Query of `GET /admin/v1/queue/accounts` (issue 36): a keyset page, as the account list's. */
@ApiSchema({ name: 'AdminListQueueAccountsQuery' })
export class ListQueueAccountsQueryDto {
  @ApiPropertyOptional({ description: '`next_cursor` of the previous page, as it was given.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/** One account with open tasks in `GET /admin/v1/queue/accounts`. */
@ApiSchema({ name: 'AdminQueueAccount' })
export class AdminQueueAccountDto {
  @ApiProperty({ format: 'uuid' })
  account_id!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Its tasks waiting to run (status `created`).',
    example: 120,
  })
  waiting!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Its tasks running now (status `processing`).',
    example: 8,
  })
  running!: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'When its oldest waiting task was submitted (ISO 8601, UTC); null when none waits.',
    example: '2025-01-31T12:00:00.123Z',
  })
  oldest_waiting_at!: string | null;
}

/** The whole queue in `GET /admin/v1/queue/accounts`, whatever the page. */
@ApiSchema({ name: 'AdminQueueTotals' })
export class AdminQueueTotalsDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Tasks waiting, every account.' })
  waiting!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Tasks running, every account.' })
  running!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Accounts with a task waiting or running (the length of the whole list).',
  })
  accounts!: number;
}

/** Answer of `GET /admin/v1/queue/accounts`: one page of accounts, most waiting first. */
@ApiSchema({ name: 'AdminQueueAccountPage' })
export class AdminQueueAccountPageDto {
  @ApiProperty({
    type: [AdminQueueAccountDto],
    description: 'Most waiting first, then by account id.',
  })
  data!: AdminQueueAccountDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
  })
  next_cursor!: string | null;

  @ApiProperty({ type: AdminQueueTotalsDto })
  totals!: AdminQueueTotalsDto;
}
