import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  AdminAccountBody,
  AdminGuard,
  CreateAccountUseCase,
  GetAccountUseCase,
  IssueApiKeyUseCase,
  presentAdminAccount,
  presentTopUpRecord,
  RevokeApiKeyUseCase,
  SetAccountStatusUseCase,
  TopUpAccountUseCase,
  TopUpRecordBody,
} from '@genhub/accounts-feature';
import { amountUnits, CreateAccountDto, CreateApiKeyDto, TopUpDto } from './dtos/admin.dto';

/** extensions.md §2: the operator's API. JSON in and out, no envelope. */
@Controller('admin/v1')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    private readonly createAccount: CreateAccountUseCase,
    private readonly getAccount: GetAccountUseCase,
    private readonly issueKey: IssueApiKeyUseCase,
    private readonly revokeKey: RevokeApiKeyUseCase,
    private readonly topUp: TopUpAccountUseCase,
    private readonly setStatus: SetAccountStatusUseCase,
  ) {}

  @Post('accounts')
  async create(@Body() body: CreateAccountDto = {}): Promise<AdminAccountBody> {
    const view = await this.createAccount.execute({
      currency: body.currency ?? 'USD',
      accountLevel: body.account_level ?? 'Bronze',
      initialUnits: amountUnits('balance', body.balance ?? 0),
    });
    return presentAdminAccount(view, { withWebhookSecret: true });
  }

  @Get('accounts/:id')
  async get(@Param('id') id: string): Promise<AdminAccountBody> {
    return presentAdminAccount(await this.getAccount.execute(id));
  }

  @Post('accounts/:id/api-keys')
  async createKey(
    @Param('id') id: string,
    @Body() body: CreateApiKeyDto = {},
  ): Promise<{ id: string; key: string }> {
    const issued = await this.issueKey.execute({ accountId: id, name: body.name });
    return { id: issued.id, key: issued.key };
  }

  @Delete('api-keys/:keyId')
  revoke(@Param('keyId') keyId: string): Promise<{ id: string; status: 'revoked' }> {
    return this.revokeKey.execute(keyId);
  }

  @Post('accounts/:id/top-ups')
  async topUpAccount(@Param('id') id: string, @Body() body: TopUpDto): Promise<TopUpRecordBody> {
    const record = await this.topUp.execute({
      accountId: id,
      amountUnits: amountUnits('amount', body.amount),
    });
    return presentTopUpRecord(record);
  }

  @Post('accounts/:id/suspend')
  @HttpCode(200)
  async suspend(@Param('id') id: string): Promise<AdminAccountBody> {
    return presentAdminAccount(
      await this.setStatus.execute({ accountId: id, status: 'suspended' }),
    );
  }

  @Post('accounts/:id/unsuspend')
  @HttpCode(200)
  async unsuspend(@Param('id') id: string): Promise<AdminAccountBody> {
    return presentAdminAccount(await this.setStatus.execute({ accountId: id, status: 'active' }));
  }
}
