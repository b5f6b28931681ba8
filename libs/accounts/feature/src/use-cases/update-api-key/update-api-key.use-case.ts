import { Injectable } from '@nestjs/common';
import { type ApiKeyChange, ApiKeyRepository, StoredApiKey } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { AuthChangesPublisher } from '../../auth/auth-changes.service';
import { assertFutureExpiry } from '../../keys/key-settings.util';

/**
 * `PATCH …/api-keys/{key_id}` (issue 37): changes a live key's name and limits
 * (absent unchanged, null cleared). Every gateway drops the account's cached
 * keys at once (the auth-changed notice), so the new limits hold from the next
 * call; a key of another account, or a revoked one, is 404.
 */
@Injectable()
export class UpdateApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly changes: AuthChangesPublisher,
  ) {}

  async execute(input: {
    accountId: string;
    keyId: string;
    change: ApiKeyChange;
  }): Promise<StoredApiKey> {
    assertFutureExpiry(input.change.expiresAt);
    const key = await this.keys.updateKey(input.accountId, input.keyId, input.change);
    if (!key) throw new AppException(AppErrorCode.NotFound);
    await this.changes.accountChanged(key.accountId);
    return key;
  }
}
