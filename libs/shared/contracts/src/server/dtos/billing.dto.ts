import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import { CURRENCIES, type Currency } from '@genhub/money';
import { ACCOUNT_LEVELS, type AccountLevel } from './admin.dto';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The account balance (`GET /v1/balance`, no envelope). */
@ApiSchema({ name: 'Balance' })
export class BalanceDto {
  @ApiProperty({
    description: 'Current balance, net of reservations, in the account currency.',
    example: 9.997,
  })
  balance!: number;

  @ApiProperty({ enum: CURRENCIES, description: 'Currency code.', example: 'USD' })
  currency!: Currency;

  @ApiProperty({ enum: ACCOUNT_LEVELS })
  account_level!: AccountLevel;
}

/** Query of `GET /api/v3/billings`. */
@ApiSchema({ name: 'BillingsQuery' })
export class BillingsQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    default: 1,
    description: 'Page number, from 1.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Records per page.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;

  @ApiPropertyOptional({
    enum: ['top-up', 'usage'],
    enumName: 'BillingRecordType',
    enumSchema: { description: 'The kind of a billing record.' },
    description: 'Omit for all records.',
  })
  @IsOptional()
  @IsIn(['top-up', 'usage'])
  type?: 'top-up' | 'usage';

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Only the records of this API key of the account (its `id` in the key list).',
  })
  @IsOptional()
  @IsUUID()
  api_key_id?: string;
}

/** One billing record (docs/interface.md, "Billing record"). */
@ApiSchema({ name: 'BillingRecord' })
export class BillingRecordDto {
  @ApiProperty({ example: '7d0c2c1e-5a43-4a2e-9a8b-2f1f1d1c0b9a' })
  id!: string;

  @ApiProperty({ description: '`YYYY-MM-DD`', example: '2025-01-31' })
  date!: string;

  @ApiProperty({ enum: ['top-up', 'usage'] })
  type!: 'top-up' | 'usage';

  @ApiProperty({ description: 'Positive for top-up, negative for usage.', example: -0.001 })
  amount!: number;

  @ApiPropertyOptional({
    description: 'Present on usage records.',
    example: 'local/simulator/test',
  })
  model?: string;

  @ApiPropertyOptional({ description: 'Present on usage records.' })
  task_id?: string;

  @ApiProperty({ description: 'Balance after the record.', example: 9.999 })
  balance_after!: number;
}

/** `data` of `GET /api/v3/billings`: newest first. */
@ApiSchema({ name: 'BillingsPage' })
export class BillingsPageDto {
  @ApiProperty({ type: () => [BillingRecordDto] })
  records!: BillingRecordDto[];

  @ApiProperty({ type: 'integer', description: 'Records matching the filter.' })
  total!: number;

  @ApiProperty({ type: 'integer' })
  page!: number;

  @ApiProperty({ type: 'integer' })
  per_page!: number;
}

/** Query of `GET /api/v3/usage` (docs/interface.md, "Usage range"). */
@ApiSchema({ name: 'UsageQuery' })
export class UsageQueryDto {
  @ApiPropertyOptional({
    description: 'Month `YYYY-MM`; default the current month.',
    pattern: MONTH.source,
  })
  @IsOptional()
  @Matches(MONTH)
  period?: string;

  @ApiPropertyOptional({
    description: 'Inclusive `YYYY-MM-DD`; with `end_date` replaces `period`.',
    pattern: DATE.source,
  })
  @IsOptional()
  @Matches(DATE)
  start_date?: string;

  @ApiPropertyOptional({
    description: 'Inclusive `YYYY-MM-DD`; default today.',
    pattern: DATE.source,
  })
  @IsOptional()
  @Matches(DATE)
  end_date?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'Only the usage of this API key of the account (its `id` in the key list), summed from its records.',
  })
  @IsOptional()
  @IsUUID()
  api_key_id?: string;
}

/** Query of `GET /api/v3/billings/export`: an inclusive date range. */
@ApiSchema({ name: 'BillingsExportQuery' })
export class BillingsExportQueryDto {
  @ApiPropertyOptional({
    description: "Inclusive `YYYY-MM-DD`; default the first day of `end_date`'s month.",
    pattern: DATE.source,
  })
  @IsOptional()
  @Matches(DATE)
  start_date?: string;

  @ApiPropertyOptional({
    description: 'Inclusive `YYYY-MM-DD`; default today.',
    pattern: DATE.source,
  })
  @IsOptional()
  @Matches(DATE)
  end_date?: string;

  @ApiPropertyOptional({
    enum: ['top-up', 'usage'],
    enumName: 'BillingRecordType',
    enumSchema: { description: 'The kind of a billing record.' },
    description: 'Omit for all records.',
  })
  @IsOptional()
  @IsIn(['top-up', 'usage'])
  type?: 'top-up' | 'usage';

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Only the records of this API key of the account (its `id` in the key list).',
  })
  @IsOptional()
  @IsUUID()
  api_key_id?: string;
}

/** One category of the usage breakdown. */
@ApiSchema({ name: 'UsageBreakdownEntry' })
export class UsageBreakdownEntryDto {
  @ApiProperty({ type: 'integer' })
  tasks!: number;

  @ApiProperty()
  cost!: number;
}

/** `data` of `GET /api/v3/usage`. */
@ApiSchema({ name: 'UsageStatistics' })
export class UsageStatisticsDto {
  @ApiProperty({ type: 'integer' })
  total_tasks!: number;

  @ApiProperty()
  total_cost!: number;

  @ApiProperty({ description: '`YYYY-MM`', example: '2025-01' })
  period!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath('UsageBreakdownEntry') },
    description: 'Map from category name to its task count and cost.',
    example: { 'text-to-image': { tasks: 3, cost: 0.003 } },
  })
  breakdown!: Record<string, UsageBreakdownEntryDto>;
}
