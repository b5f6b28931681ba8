import { Body, Controller, Delete, Get, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiParam } from '@nestjs/swagger';
import {
  ApiKeyGuard,
  ApiKeySpend,
  AuthenticatedAccount,
  CurrentAccount,
  keyChangeFromDto,
  OwnApiKeysUseCase,
  presentApiKey,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  type ApiEnvelopeDto,
  type ApiKeyDto,
  ApiKeyListResponseDto,
  ApiKeyResponseDto,
  CreateOwnApiKeyDto,
  envelope,
  type IssuedOwnApiKeyDto,
  IssuedOwnApiKeyResponseDto,
  type RevokedApiKeyDto,
  RevokedOwnApiKeyResponseDto,
  UpdateApiKeyDto,
  V3Route,
} from '@genhub/contracts/server';
import { AppErrorCode } from '@genhub/errors';

const KeyIdParam = () => ApiParam({ name: 'key_id', description: 'The key id.', format: 'uuid' });

const NEVER_WIDER =
  'Never wider than the calling key (403 `key_wider_than_caller`): its scopes must be among the caller’s; with the caller’s `allowed_models`, each pattern must be within them; with the caller’s `spend_limit`, one of the same period and at most its amount; with the caller’s `expires_at`, one no later.';

/**
 * Self-service keys (issue 37, decision 0134): a key with `keys:manage` lists,
 * creates, limits and revokes its own account's keys, never one wider than
 * itself. The answers are those of the admin API in the `/api/v3` envelope.
 */
@Controller('api/v3/keys')
@UseGuards(ApiKeyGuard)
@RequiresScope('keys:manage')
export class KeysController {
  constructor(
    private readonly keys: OwnApiKeysUseCase,
    private readonly spend: ApiKeySpend,
  ) {}

  @Get()
  @V3Route({
    operationId: 'listApiKeys',
    tag: 'Keys',
    summary: "List your account's API keys",
    description:
      'Every key of the caller’s account, newest first, revoked ones included: settings, `spent` in the current period, `last_used_at` and the prefix; never the key.',
    ok: { description: 'The keys.', type: ApiKeyListResponseDto },
    errors: [AppErrorCode.ScopeNotAllowed],
  })
  async list(@CurrentAccount() caller: AuthenticatedAccount): Promise<ApiEnvelopeDto<ApiKeyDto[]>> {
    const keys = await this.keys.list(caller);
    const spent = await this.spend.spentUnits(keys);
    return envelope(keys.map((key, i) => presentApiKey(key, spent[i])));
  }

  @Post()
  @V3Route({
    operationId: 'createApiKey',
    tag: 'Keys',
    summary: 'Create an API key',
    description: `A new key of the caller’s account with the settings given (absent: no limit of its own). The plain key is in this answer only. ${NEVER_WIDER}`,
    ok: { status: 201, description: 'The new key.', type: IssuedOwnApiKeyResponseDto },
    errors: [
      AppErrorCode.InvalidRequest,
      AppErrorCode.ScopeNotAllowed,
      AppErrorCode.KeyWiderThanCaller,
    ],
  })
  @ApiBody({ type: CreateOwnApiKeyDto, required: false })
  async create(
    @CurrentAccount() caller: AuthenticatedAccount,
    @Body() body: CreateOwnApiKeyDto = {},
  ): Promise<ApiEnvelopeDto<IssuedOwnApiKeyDto>> {
    const issued = await this.keys.create(caller, keyChangeFromDto(body));
    // A new key has spent nothing yet.
    return envelope({ ...presentApiKey(issued.stored, 0), key: issued.key });
  }

  @Patch(':key_id')
  @V3Route({
    operationId: 'updateApiKey',
    tag: 'Keys',
    summary: "Change an API key's name and limits",
    description: `Changes the settings given and keeps the others; \`null\` clears one. The key’s resulting settings are held to the same rule as a new key’s. ${NEVER_WIDER} A revoked key or one of another account is 404.`,
    ok: { description: 'The key.', type: ApiKeyResponseDto },
    errors: [
      AppErrorCode.InvalidRequest,
      AppErrorCode.NotFound,
      AppErrorCode.ScopeNotAllowed,
      AppErrorCode.KeyWiderThanCaller,
    ],
  })
  @KeyIdParam()
  @ApiBody({ type: UpdateApiKeyDto })
  async update(
    @CurrentAccount() caller: AuthenticatedAccount,
    @Param('key_id') keyId: string,
    @Body() body: UpdateApiKeyDto,
  ): Promise<ApiEnvelopeDto<ApiKeyDto>> {
    const key = await this.keys.change(caller, keyId, keyChangeFromDto(body));
    const [spent] = await this.spend.spentUnits([key]);
    return envelope(presentApiKey(key, spent));
  }

  @Delete(':key_id')
  @V3Route({
    operationId: 'revokeApiKey',
    tag: 'Keys',
    summary: 'Revoke an API key',
    description:
      'The key answers 401 from then on, on every gateway; its open event streams end within seconds. Revoking a revoked key answers the same. A key of another account is 404.',
    ok: { description: 'The key is revoked.', type: RevokedOwnApiKeyResponseDto },
    errors: [AppErrorCode.NotFound, AppErrorCode.ScopeNotAllowed],
  })
  @KeyIdParam()
  async revoke(
    @CurrentAccount() caller: AuthenticatedAccount,
    @Param('key_id') keyId: string,
  ): Promise<ApiEnvelopeDto<RevokedApiKeyDto>> {
    return envelope(await this.keys.revoke(caller, keyId));
  }
}
