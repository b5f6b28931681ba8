import { Injectable } from '@nestjs/common';
import { type ApiKeyChange, ApiKeyRepository, StoredApiKey } from '@genhub/accounts-data-access';
import type { RevokedApiKeyDto } from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';
import type { AuthenticatedAccount } from '../../auth/authenticated-account.util';
import { limitsAfter, limitsOfNewKey } from '../../keys/key-settings.util';
import { assertWithinCaller } from '../../keys/key-within-caller.util';
import { IssueApiKeyUseCase, IssuedApiKey } from '../issue-api-key/issue-api-key.use-case';
import { RevokeApiKeyUseCase } from '../revoke-api-key/revoke-api-key.use-case';
import { UpdateApiKeyUseCase } from '../update-api-key/update-api-key.use-case';

/**
 * `/api/v3/keys` (issue 37): a key with `keys:manage` lists, creates, limits
 * and revokes its own account's keys, never one wider than itself (403
 * key_wider_than_caller); a key of another account is 404.
 */
@Injectable()
export class OwnApiKeysUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly issue: IssueApiKeyUseCase,
    private readonly update: UpdateApiKeyUseCase,
    private readonly revokeKey: RevokeApiKeyUseCase,
  ) {}

  list(caller: AuthenticatedAccount): Promise<StoredApiKey[]> {
    return this.keys.listKeysOfAccount(caller.id);
  }

  create(caller: AuthenticatedAccount, settings: ApiKeyChange): Promise<IssuedApiKey> {
    const limits = limitsOfNewKey(settings);
    assertWithinCaller(caller.apiKeyLimits, limits);
    return this.issue.execute({ accountId: caller.id, name: settings.name, limits });
  }

  /** The same rule on the settings the key would have after the change. */
  async change(
    caller: AuthenticatedAccount,
    keyId: string,
    change: ApiKeyChange,
  ): Promise<StoredApiKey> {
    const current = await this.keys.findOwnedKey(caller.id, keyId);
    if (!current || current.revokedAt) throw new AppException(AppErrorCode.NotFound);
    assertWithinCaller(caller.apiKeyLimits, limitsAfter(current, change));
    return this.update.execute({ accountId: caller.id, keyId, change });
  }

  revoke(caller: AuthenticatedAccount, keyId: string): Promise<RevokedApiKeyDto> {
    return this.revokeKey.execute(keyId, caller.id);
  }
}
