import { Inject, Injectable } from '@nestjs/common';
import { type ApiKeyChange, ApiKeyRepository, StoredApiKey } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { AuthChangesPublisher } from '../../auth/auth-changes.service';
import { ACCOUNT_BALANCES, AccountBalances } from '../../ports/account-balances.port';
import { assertFutureExpiry } from '../../keys/key-settings.util';

/**
 * `PATCH …/api-keys/{key_id}` (issue 37): changes a live key's name and limits
 * (absent unchanged, null cleared). Every gateway drops the account's cached
 * keys at once (the auth-changed notice), so the new limits hold from the next
 * call; a key of another account, or a revoked one, is 404. A spend limit
 * set or changed starts from what the key already spent in the new period
 * (the ledger recounts it), not from zero.
 */
@Injectable()
export class UpdateApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly changes: AuthChangesPublisher,
    @Inject(ACCOUNT_BALANCES) private readonly balances: Pick<AccountBalances, 'resetKeySpend'>,
  ) {}

  async execute(input: {
    accountId: string;
    keyId: string;
    change: ApiKeyChange;
  }): Promise<StoredApiKey> {
    assertFutureExpiry(input.change.expiresAt);
    const key = await this.keys.updateKey(input.accountId, input.keyId, input.change);
    if (!key) throw new AppException(AppErrorCode.NotFound);
    if (key.spendLimit && input.change.spendLimit !== undefined)
      await this.balances.resetKeySpend(key, new Date());
    await this.changes.accountChanged(key.accountId);
    return key;
  }
}
