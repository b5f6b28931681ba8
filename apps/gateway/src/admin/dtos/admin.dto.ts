import {
  IsIn,
  IsOptional,
  IsPositive,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidationOptions,
} from 'class-validator';
import { ACCOUNT_LEVELS, AccountLevel } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { CURRENCIES, Currency, toMicros } from '@genhub/money';

/** Largest amount accepted in one call (far below the micro-unit safe-integer limit). */
export const MAX_AMOUNT = 1_000_000_000;

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
function IsMoneyAmount(options?: ValidationOptions): PropertyDecorator {
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

/** extensions.md §2 `POST /admin/v1/accounts`; every field optional. */
export class CreateAccountDto {
  @IsOptional()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @IsOptional()
  @IsIn(ACCOUNT_LEVELS)
  account_level?: AccountLevel;

  @IsOptional()
  @IsMoneyAmount()
  @Min(0)
  @Max(MAX_AMOUNT)
  balance?: number;
}

export class CreateApiKeyDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;
}

export class TopUpDto {
  @IsMoneyAmount()
  @IsPositive()
  @Max(MAX_AMOUNT)
  amount!: number;
}

/** A validated interface amount → micro-units (a 400, never a 500, if it still does not fit). */
export function amountUnits(field: string, amount: number): number {
  try {
    return toMicros(amount);
  } catch (error) {
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: `Invalid request: ${field} ${(error as Error).message.replace(/^amount /, '')}`,
      fields: [field],
    });
  }
}
