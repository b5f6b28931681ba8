import { Injectable } from '@nestjs/common';
import {
  AccountRepository,
  apiKeyPrefix,
  type ApiKeyLimits,
  ApiKeyRepository,
  generateApiKey,
  hashApiKey,
  NO_LIMITS,
  StoredApiKey,
} from '@genhub/accounts-data-access';
import { PepperConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';
import { assertFutureExpiry } from '../../keys/key-settings.util';

export interface IssuedApiKey {
  stored: StoredApiKey;
  /** The plain key: returned here once, never stored. */
  key: string;
}

export interface IssueApiKeyInput {
  accountId: string;
  name?: string | null;
  /** What the key may do beyond its account (issue 37); absent: no limit. */
  limits?: ApiKeyLimits;
}

@Injectable()
export class IssueApiKeyUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyRepository,
    private readonly security: PepperConfig,
  ) {}

  async execute(input: IssueApiKeyInput): Promise<IssuedApiKey> {
    assertFutureExpiry(input.limits?.expiresAt);
    const account = await this.accounts.findAccount(input.accountId);
    if (!account) throw new AppException(AppErrorCode.NotFound);
    const key = generateApiKey();
    const stored = await this.keys.issueKey({
      accountId: account.id,
      name: input.name ?? null,
      prefix: apiKeyPrefix(key),
      keyHash: hashApiKey(this.security.API_KEY_PEPPER, key),
      limits: input.limits ?? NO_LIMITS,
    });
    return { stored, key };
  }
}
