import { Injectable } from '@nestjs/common';
import { AccountRepository, StoredApiKey, ApiKeyRepository } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';

/** GET /admin/v1/accounts/{id}/api-keys: an account's keys, newest first; unknown account 404. */
@Injectable()
export class ListApiKeysUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyRepository,
  ) {}

  async execute(accountId: string): Promise<StoredApiKey[]> {
    const account = await this.accounts.findAccount(accountId);
    if (!account) throw new AppException(AppErrorCode.NotFound);
    return this.keys.listKeysOfAccount(account.id);
  }
}
