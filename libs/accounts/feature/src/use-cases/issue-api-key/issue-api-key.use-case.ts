import { Injectable } from '@nestjs/common';
import {
  AccountRepository,
  apiKeyPrefix,
  ApiKeyRepository,
  generateApiKey,
  hashApiKey,
  StoredApiKey,
} from '@genhub/accounts-data-access';
import { PepperConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';

export interface IssuedApiKey {
  stored: StoredApiKey;
  /** The plain key: returned here once, never stored. */
  key: string;
}

@Injectable()
export class IssueApiKeyUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyRepository,
    private readonly security: PepperConfig,
  ) {}

  async execute(input: { accountId: string; name?: string | null }): Promise<IssuedApiKey> {
    const account = await this.accounts.findAccount(input.accountId);
    if (!account) throw new AppException(AppErrorCode.NotFound);
    const key = generateApiKey();
    const stored = await this.keys.issueKey({
      accountId: account.id,
      name: input.name ?? null,
      prefix: apiKeyPrefix(key),
      keyHash: hashApiKey(this.security.API_KEY_PEPPER, key),
    });
    return { stored, key };
  }
}
