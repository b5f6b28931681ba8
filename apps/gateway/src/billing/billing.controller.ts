import { Controller, Get, Header, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { ApiKeyGuard, type AuthenticatedAccount, CurrentAccount } from '@genhub/accounts-feature';
import {
  ExportBillingsUseCase,
  GetBalanceUseCase,
  GetUsageUseCase,
  ListBillingsUseCase,
} from '@genhub/billing-feature';
import {
  type ApiEnvelopeDto,
  type BalanceDto,
  type BillingsExportQueryDto,
  type BillingsPageDto,
  type BillingsQueryDto,
  envelope,
  type RawQuery,
  type UsageQueryDto,
  type UsageStatisticsDto,
} from '@genhub/contracts/server';
import { optionalInt, optionalString, optionalType } from './billing-query.util';

/** `GET /v1/balance`: no envelope (interface.md). */
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class BalanceController {
  constructor(private readonly balance: GetBalanceUseCase) {}

  @Get('balance')
  @Header('Cache-Control', 'no-store')
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
export class BillingsController {
  constructor(
    private readonly billings: ListBillingsUseCase,
    private readonly usage: GetUsageUseCase,
    private readonly exporter: ExportBillingsUseCase,
  ) {}

  @Get('billings')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: RawQuery<BillingsQueryDto>,
  ): Promise<ApiEnvelopeDto<BillingsPageDto>> {
    const data = await this.billings.execute({
      accountId: account.id,
      page: optionalInt(query, 'page'),
      perPage: optionalInt(query, 'per_page'),
      type: optionalType(query),
    });
    return envelope(data);
  }

  @Get('usage')
  async get(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: RawQuery<UsageQueryDto>,
  ): Promise<ApiEnvelopeDto<UsageStatisticsDto>> {
    const data = await this.usage.execute({
      accountId: account.id,
      period: optionalString(query, 'period'),
      startDate: optionalString(query, 'start_date'),
      endDate: optionalString(query, 'end_date'),
    });
    return envelope(data);
  }

  @Get('billings/export')
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
    });
    await reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${result.filename}"`)
      .header('Cache-Control', 'no-store')
      .send(Readable.from(result.chunks));
  }
}
