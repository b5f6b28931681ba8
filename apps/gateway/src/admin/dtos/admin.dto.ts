import {
  IsIn,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { ACCOUNT_LEVELS, AccountLevel } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { CURRENCIES, Currency, toMicros } from '@genhub/money';

/** Largest amount accepted in one call (far below the micro-unit safe-integer limit). */
export const MAX_AMOUNT = 1_000_000_000;
const MONEY = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 6 } as const;

/** extensions.md §2 `POST /admin/v1/accounts`; every field optional. */
export class CreateAccountDto {
  @IsOptional()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @IsOptional()
  @IsIn(ACCOUNT_LEVELS)
  account_level?: AccountLevel;

  @IsOptional()
  @IsNumber(MONEY, { message: 'balance must be a number with at most 6 decimals' })
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
  @IsNumber(MONEY, { message: 'amount must be a number with at most 6 decimals' })
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
