import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  AdminGuard,
  CreateAccountUseCase,
  GetAccountUseCase,
  IssueApiKeyUseCase,
  presentAdminAccount,
  presentTopUpRecord,
  RevokeApiKeyUseCase,
  RotateWebhookSecretUseCase,
  SetAccountStatusUseCase,
  TopUpAccountUseCase,
} from '@genhub/accounts-feature';
import {
  AdminAccountDto,
  BillingRecordDto,
  CreateAccountDto,
  CreateApiKeyDto,
  IssuedApiKeyDto,
  RevokedApiKeyDto,
  RotatedWebhookSecretDto,
  TopUpDto,
} from '@genhub/contracts/server';
import { amountUnits } from './amount-units.util';

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
    private readonly rotateSecret: RotateWebhookSecretUseCase,
  ) {}

  @Post('accounts')
  async create(@Body() body: CreateAccountDto = {}): Promise<AdminAccountDto> {
    const view = await this.createAccount.execute({
      currency: body.currency ?? 'USD',
      accountLevel: body.account_level ?? 'Bronze',
      initialUnits: amountUnits('balance', body.balance ?? 0),
    });
    return presentAdminAccount(view, { withWebhookSecret: true });
  }

  @Get('accounts/:id')
  async get(@Param('id') id: string): Promise<AdminAccountDto> {
    return presentAdminAccount(await this.getAccount.execute(id));
  }

  @Post('accounts/:id/api-keys')
  async createKey(
    @Param('id') id: string,
    @Body() body: CreateApiKeyDto = {},
  ): Promise<IssuedApiKeyDto> {
    const issued = await this.issueKey.execute({ accountId: id, name: body.name });
    return { id: issued.id, key: issued.key };
  }

  @Delete('api-keys/:keyId')
  revoke(@Param('keyId') keyId: string): Promise<RevokedApiKeyDto> {
    return this.revokeKey.execute(keyId);
  }

  @Post('accounts/:id/top-ups')
  async topUpAccount(@Param('id') id: string, @Body() body: TopUpDto): Promise<BillingRecordDto> {
    const record = await this.topUp.execute({
      accountId: id,
      amountUnits: amountUnits('amount', body.amount),
    });
    return presentTopUpRecord(record);
  }

  @Post('accounts/:id/suspend')
  @HttpCode(200)
  async suspend(@Param('id') id: string): Promise<AdminAccountDto> {
    return presentAdminAccount(
      await this.setStatus.execute({ accountId: id, status: 'suspended' }),
    );
  }

  @Post('accounts/:id/unsuspend')
  @HttpCode(200)
  async unsuspend(@Param('id') id: string): Promise<AdminAccountDto> {
    return presentAdminAccount(await this.setStatus.execute({ accountId: id, status: 'active' }));
  }

  /** Extension (decision 0066): a new webhook secret; the old one stops signing. */
  @Post('accounts/:id/webhook-secret')
  @HttpCode(200)
  async rotateWebhookSecret(@Param('id') id: string): Promise<RotatedWebhookSecretDto> {
    const rotated = await this.rotateSecret.execute(id);
    return { id: rotated.id, webhook_secret: rotated.webhookSecret };
  }
}
