import { Injectable } from '@nestjs/common';
import { AccountRepository } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { AuthChangesPublisher } from '../../auth/auth-changes.service';

export interface RotatedWebhookSecret {
  id: string;
  webhookSecret: string;
}

/**
 * Gives an account a new webhook signing secret. The change is announced on
 * the auth-changed channel so every webhook-dispatcher drops its cached copy:
 * attempts started after that are signed with the new secret only
 * (docs/decisions/0066).
 */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly changes: AuthChangesPublisher,
  ) {}

  async execute(accountId: string): Promise<RotatedWebhookSecret> {
    const account = await this.accounts.rotateWebhookSecret(accountId);
    if (!account) throw new AppException(AppErrorCode.NotFound);
    await this.changes.accountChanged(account.id);
    return { id: account.id, webhookSecret: account.webhookSecret };
  }
}
