import { Controller, Get, Header, Query, Res, UseGuards } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import {
  ApiKeyGuard,
  type AuthenticatedAccount,
  CurrentAccount,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  ExportBillingsUseCase,
  GetBalanceUseCase,
  GetUsageUseCase,
  ListBillingsUseCase,
} from '@genhub/billing-feature';
import {
  type ApiEnvelopeDto,
  BalanceDto,
  BillingsExportQueryDto,
  type BillingsPageDto,
  BillingsPageResponseDto,
  BillingsQueryDto,
  envelope,
  type RawQuery,
  UsageQueryDto,
  type UsageStatisticsDto,
  UsageStatisticsResponseDto,
  V1Route,
  V3Route,
} from '@genhub/contracts/server';
import { AppErrorCode } from '@genhub/errors';
import { optionalApiKeyId, optionalInt, optionalString, optionalType } from './billing-query.util';

/** `GET /v1/balance`: no envelope (docs/interface.md, "Check balance"). */
@Controller('v1')
@UseGuards(ApiKeyGuard)
@RequiresScope('billing:read')
export class BalanceController {
  constructor(private readonly balance: GetBalanceUseCase) {}

  @Get('balance')
  @Header('Cache-Control', 'no-store')
  @V1Route({
    operationId: 'getBalance',
    tag: 'Account',
    summary: 'Check the balance',
    description: 'The balance net of open reservations. No envelope.',
    ok: { description: 'The balance.', type: BalanceDto },
  })
  async get(@CurrentAccount() account: AuthenticatedAccount): Promise<BalanceDto> {
    const result = await this.balance.execute({
      accountId: account.id,
      currency: account.currency,
    });
    return {
      balance: result.balance,
      currency: result.currency,
      account_level: account.accountLevel,
    };
  }
}

/** Billings, usage and the CSV export, under the v3 envelope (the export streams raw CSV). */
@Controller('api/v3')
@UseGuards(ApiKeyGuard)
@RequiresScope('billing:read')
export class BillingsController {
  constructor(
    private readonly billings: ListBillingsUseCase,
    private readonly usage: GetUsageUseCase,
    private readonly exporter: ExportBillingsUseCase,
  ) {}

  @Get('billings')
  @V3Route({
    operationId: 'listBillings',
    tag: 'Billing',
    summary: 'Check billings',
    description: 'Billing records, newest first; `api_key_id` keeps those of one key.',
    ok: { description: 'A page of billing records.', type: BillingsPageResponseDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  @ApiQuery({ type: BillingsQueryDto })
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: RawQuery<BillingsQueryDto>,
  ): Promise<ApiEnvelopeDto<BillingsPageDto>> {
    const data = await this.billings.execute({
      accountId: account.id,
      page: optionalInt(query, 'page'),
      perPage: optionalInt(query, 'per_page'),
      type: optionalType(query),
      apiKeyId: optionalApiKeyId(query),
    });
    return envelope(data);
  }

  @Get('usage')
  @V3Route({
    operationId: 'getUsage',
    tag: 'Billing',
    summary: 'Check usage',
    description:
      "`start_date` and `end_date` are inclusive and, when either is given, replace `period`; the answer's `period` is then the month of the range's start. `api_key_id` counts only that key's usage.",
    ok: { description: 'Usage statistics.', type: UsageStatisticsResponseDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  @ApiQuery({ type: UsageQueryDto })
  async get(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: RawQuery<UsageQueryDto>,
  ): Promise<ApiEnvelopeDto<UsageStatisticsDto>> {
    const data = await this.usage.execute({
      accountId: account.id,
      period: optionalString(query, 'period'),
      startDate: optionalString(query, 'start_date'),
      endDate: optionalString(query, 'end_date'),
      apiKeyId: optionalApiKeyId(query),
    });
    return envelope(data);
  }

  @Get('billings/export')
  @V3Route({
    operationId: 'exportBillings',
    tag: 'Billing',
    summary: 'Export billings as CSV',
    description:
      'Streams the billing records of an inclusive date range as CSV, newest first, one header line then one line per record; `api_key_id` keeps those of one key.',
    ok: {
      description: 'CSV with the columns of a billing record.',
      content: {
        'text/csv': {
          schema: { type: 'string' },
          example:
            'id,date,type,amount,model,task_id,balance_after\n7d0c2c1e-5a43-4a2e-9a8b-2f1f1d1c0b9a,2025-01-31,usage,-0.001,local/simulator/test,0f8fad5b-d9cb-469f-a165-70867728950e,9.999\n',
        },
      },
    },
    errors: [AppErrorCode.InvalidRequest],
  })
  @ApiQuery({ type: BillingsExportQueryDto })
  async export(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: RawQuery<BillingsExportQueryDto>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const result = await this.exporter.execute({
      accountId: account.id,
      startDate: optionalString(query, 'start_date'),
      endDate: optionalString(query, 'end_date'),
      type: optionalType(query),
      apiKeyId: optionalApiKeyId(query),
    });
    await reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${result.filename}"`)
      .header('Cache-Control', 'no-store')
      .send(Readable.from(result.chunks));
  }
}
