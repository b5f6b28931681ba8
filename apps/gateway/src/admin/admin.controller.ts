import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiBody, ApiParam } from '@nestjs/swagger';
import {
  AdminGuard,
  ApiKeySpend,
  CreateAccountUseCase,
  GetAccountUseCase,
  IssueApiKeyUseCase,
  keyChangeFromDto,
  limitsOfNewKey,
  ListAccountsUseCase,
  ListApiKeysUseCase,
  presentAdminAccount,
  presentAdminAccountPage,
  presentApiKey,
  presentTopUpRecord,
  RevokeApiKeyUseCase,
  RotateWebhookSecretUseCase,
  SetAccountStatusUseCase,
  TopUpAccountUseCase,
  UpdateAccountUseCase,
  UpdateApiKeyUseCase,
} from '@genhub/accounts-feature';
import {
  AdminRoute,
  AdminAccountDto,
  AdminAccountPageDto,
  AdminApiKeyDto,
  AdminApiKeyListDto,
  AdminQueueAccountPageDto,
  BillingRecordDto,
  CreateAccountDto,
  CreateApiKeyDto,
  DEFAULT_ACCOUNT_LEVEL,
  IssuedApiKeyDto,
  ListAccountsQueryDto,
  ListQueueAccountsQueryDto,
  RevokedApiKeyDto,
  RotatedWebhookSecretDto,
  TopUpDto,
  UpdateAccountDto,
  UpdateApiKeyDto,
} from '@genhub/contracts/server';
import { AppErrorCode } from '@genhub/errors';
import { DEFAULT_CURRENCY } from '@genhub/money';
import { ListQueueAccountsUseCase } from '@genhub/tasks-feature';
import { amountUnits } from './amount-units.util';

const AccountIdParam = () =>
  ApiParam({ name: 'id', description: 'The account id.', format: 'uuid' });

/** The operator's API (docs/interface.md, "Admin API"): JSON in and out, no envelope. */
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
    private readonly listAccounts: ListAccountsUseCase,
    private readonly listKeys: ListApiKeysUseCase,
    private readonly listQueueAccounts: ListQueueAccountsUseCase,
    private readonly updateAccount: UpdateAccountUseCase,
    private readonly updateKey: UpdateApiKeyUseCase,
    private readonly keySpend: ApiKeySpend,
  ) {}

  @Post('accounts')
  @AdminRoute({
    operationId: 'adminCreateAccount',
    tag: 'Admin',
    summary: 'Create an account',
    description:
      "A positive opening `balance` is recorded as the account's first `top-up` billing record. The answer is the only one that carries `webhook_secret`.",
    ok: {
      status: 201,
      description: 'The new account, with its webhook secret.',
      type: AdminAccountDto,
    },
    errors: [AppErrorCode.InvalidRequest],
  })
  @ApiBody({ type: CreateAccountDto, required: false })
  async create(@Body() body: CreateAccountDto = {}): Promise<AdminAccountDto> {
    const view = await this.createAccount.execute({
      currency: body.currency ?? DEFAULT_CURRENCY,
      accountLevel: body.account_level ?? DEFAULT_ACCOUNT_LEVEL,
      initialUnits: amountUnits('balance', body.balance ?? 0),
    });
    return presentAdminAccount(view, { withWebhookSecret: true });
  }

  /** Extension (decision 0116): the console's account list. */
  @Get('accounts')
  @AdminRoute({
    operationId: 'adminListAccounts',
    tag: 'Admin',
    summary: 'List accounts',
    description:
      'The accounts, newest first, optionally only those in one `status`; one page of `limit` (default 20, at most 100) at a time: pass `next_cursor` back as `cursor` for the next (null on the last page). Each item is the account as `GET /admin/v1/accounts/{id}` answers it. Pages stay stable while accounts are created (decision 0116).',
    ok: { description: 'A page of accounts.', type: AdminAccountPageDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  async list(@Query() query: ListAccountsQueryDto): Promise<AdminAccountPageDto> {
    return presentAdminAccountPage(
      await this.listAccounts.execute({
        status: query.status,
        cursor: query.cursor,
        limit: query.limit,
      }),
    );
  }

  @Get('accounts/:id')
  @AdminRoute({
    operationId: 'adminGetAccount',
    tag: 'Admin',
    summary: 'Read an account',
    ok: { description: 'The account (without `webhook_secret`).', type: AdminAccountDto },
  })
  @AccountIdParam()
  async get(@Param('id') id: string): Promise<AdminAccountDto> {
    return presentAdminAccount(await this.getAccount.execute(id));
  }

  /** Extension (issue 36): the level and the optional cap on tasks running at once. */
  @Patch('accounts/:id')
  @AdminRoute({
    operationId: 'adminUpdateAccount',
    tag: 'Admin',
    summary: 'Change an account',
    description:
      "Changes the fields given and keeps the others: `account_level` (its weight when accounts share the workers) and `max_concurrent_tasks` (1–10000: at most that many of the account's tasks run at once, the others wait aside while other accounts' run; `null` removes the cap, the default). Applies at once, to tasks already waiting too.",
    ok: { description: 'The account.', type: AdminAccountDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  @AccountIdParam()
  @ApiBody({ type: UpdateAccountDto })
  async update(@Param('id') id: string, @Body() body: UpdateAccountDto): Promise<AdminAccountDto> {
    return presentAdminAccount(
      await this.updateAccount.execute({
        accountId: id,
        accountLevel: body.account_level,
        maxConcurrentTasks: body.max_concurrent_tasks,
      }),
    );
  }

  @Post('accounts/:id/api-keys')
  @AdminRoute({
    operationId: 'adminIssueApiKey',
    tag: 'Admin',
    summary: 'Issue an API key',
    description:
      'The plain key is returned once and stored only as a hash. Every setting is optional (absent: no limit): `allowed_models` (slug patterns), `spend_limit` (`{amount, period}`), `expires_at` (in the future, else 400) and `scopes` (docs/interface.md, "API keys with limits").',
    ok: { status: 201, description: 'The new key.', type: IssuedApiKeyDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  @AccountIdParam()
  @ApiBody({ type: CreateApiKeyDto, required: false })
  async createKey(
    @Param('id') id: string,
    @Body() body: CreateApiKeyDto = {},
  ): Promise<IssuedApiKeyDto> {
    const settings = keyChangeFromDto(body);
    const issued = await this.issueKey.execute({
      accountId: id,
      name: settings.name,
      limits: limitsOfNewKey(settings),
    });
    // A new key has spent nothing yet.
    return { ...presentApiKey(issued.stored, 0), key: issued.key };
  }

  /** Extension (decision 0116): the console's key list of an account. */
  @Get('accounts/:id/api-keys')
  @AdminRoute({
    operationId: 'adminListApiKeys',
    tag: 'Admin',
    summary: "List an account's API keys",
    description:
      'Every key of the account, newest first, revoked ones included: its label, status and times; never the key or its hash.',
    ok: { description: "The account's keys.", type: AdminApiKeyListDto },
  })
  @AccountIdParam()
  async listApiKeys(@Param('id') id: string): Promise<AdminApiKeyListDto> {
    const keys = await this.listKeys.execute(id);
    const spent = await this.keySpend.spentUnits(keys);
    return { data: keys.map((key, i) => presentApiKey(key, spent[i])) };
  }

  @Patch('accounts/:id/api-keys/:key_id')
  @AdminRoute({
    operationId: 'adminUpdateApiKey',
    tag: 'Admin',
    summary: "Change an API key's name and limits",
    description:
      'Changes the settings given and keeps the others; `null` clears one (no limit). Applies from the next call on every gateway. A revoked key, or a key of another account, is 404.',
    ok: { description: 'The key.', type: AdminApiKeyDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  @AccountIdParam()
  @ApiParam({ name: 'key_id', description: 'The key id.', format: 'uuid' })
  @ApiBody({ type: UpdateApiKeyDto })
  async changeKey(
    @Param('id') id: string,
    @Param('key_id') keyId: string,
    @Body() body: UpdateApiKeyDto,
  ): Promise<AdminApiKeyDto> {
    const key = await this.updateKey.execute({
      accountId: id,
      keyId,
      change: keyChangeFromDto(body),
    });
    const [spent] = await this.keySpend.spentUnits([key]);
    return presentApiKey(key, spent);
  }

  @Delete('api-keys/:keyId')
  @AdminRoute({
    operationId: 'adminRevokeApiKey',
    tag: 'Admin',
    summary: 'Revoke an API key',
    description: 'The key answers 401 `Invalid or revoked API key` from then on.',
    ok: { description: 'The key is revoked.', type: RevokedApiKeyDto },
  })
  @ApiParam({ name: 'keyId', description: 'The key id.', format: 'uuid' })
  revoke(@Param('keyId') keyId: string): Promise<RevokedApiKeyDto> {
    return this.revokeKey.execute(keyId);
  }

  /** Extension (issue 36): who waits in the queue, and who runs. */
  @Get('queue/accounts')
  @AdminRoute({
    operationId: 'adminListQueueAccounts',
    tag: 'Admin',
    summary: 'List the queue by account',
    description:
      'The accounts with tasks waiting (`created`) or running (`processing`), most waiting first, then by account id; one page of `limit` (default 20, at most 100) at a time: pass `next_cursor` back as `cursor` for the next (null on the last page). `totals` sums the whole queue, whatever the page. Read from PostgreSQL: a count that changes between two pages may move an account across the page boundary.',
    ok: { description: 'A page of accounts with open tasks.', type: AdminQueueAccountPageDto },
    errors: [AppErrorCode.InvalidRequest],
  })
  listQueue(@Query() query: ListQueueAccountsQueryDto): Promise<AdminQueueAccountPageDto> {
    return this.listQueueAccounts.execute({ cursor: query.cursor, limit: query.limit });
  }

  @Post('accounts/:id/top-ups')
  @AdminRoute({
    operationId: 'adminTopUpAccount',
    tag: 'Admin',
    summary: 'Top up an account',
    ok: {
      status: 201,
      description: 'The new billing record (`type: top-up`).',
      type: BillingRecordDto,
    },
    errors: [AppErrorCode.InvalidRequest],
  })
  @AccountIdParam()
  async topUpAccount(@Param('id') id: string, @Body() body: TopUpDto): Promise<BillingRecordDto> {
    const record = await this.topUp.execute({
      accountId: id,
      amountUnits: amountUnits('amount', body.amount),
    });
    return presentTopUpRecord(record);
  }

  @Post('accounts/:id/suspend')
  @HttpCode(200)
  @AdminRoute({
    operationId: 'adminSuspendAccount',
    tag: 'Admin',
    summary: 'Suspend an account',
    description:
      "Sets the account's `status` to `suspended`; its API keys answer 403 from then on.",
    ok: { description: 'The account.', type: AdminAccountDto },
  })
  @AccountIdParam()
  async suspend(@Param('id') id: string): Promise<AdminAccountDto> {
    return presentAdminAccount(
      await this.setStatus.execute({ accountId: id, status: 'suspended' }),
    );
  }

  @Post('accounts/:id/unsuspend')
  @HttpCode(200)
  @AdminRoute({
    operationId: 'adminUnsuspendAccount',
    tag: 'Admin',
    summary: 'Unsuspend an account',
    description: "Sets the account's `status` to `active`.",
    ok: { description: 'The account.', type: AdminAccountDto },
  })
  @AccountIdParam()
  async unsuspend(@Param('id') id: string): Promise<AdminAccountDto> {
    return presentAdminAccount(await this.setStatus.execute({ accountId: id, status: 'active' }));
  }

  /** Extension (decision 0066): a new webhook secret; the old one stops signing. */
  @Post('accounts/:id/webhook-secret')
  @HttpCode(200)
  @AdminRoute({
    operationId: 'adminRotateWebhookSecret',
    tag: 'Admin',
    summary: "Rotate an account's webhook secret",
    description:
      'A new signing key, returned once; deliveries attempted from then on are signed with it only (decision 0066).',
    ok: { description: 'The new secret.', type: RotatedWebhookSecretDto },
  })
  @AccountIdParam()
  async rotateWebhookSecret(@Param('id') id: string): Promise<RotatedWebhookSecretDto> {
    const rotated = await this.rotateSecret.execute(id);
    return { id: rotated.id, webhook_secret: rotated.webhookSecret };
  }
}
