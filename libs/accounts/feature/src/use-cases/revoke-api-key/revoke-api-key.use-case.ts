import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from '@genhub/accounts-data-access';
import type { RevokedApiKeyDto } from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';
import { AuthChangesPublisher } from '../../auth/auth-changes.service';

/** Revokes a key (idempotent); every gateway refuses it within a second. */
@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly changes: AuthChangesPublisher,
  ) {}

  /** With `accountId` (`/api/v3/keys`), a key of another account is 404. */
  async execute(keyId: string, accountId?: string): Promise<RevokedApiKeyDto> {
    const key = await this.keys.revokeKey(keyId, accountId);
    if (!key) throw new AppException(AppErrorCode.NotFound);
    await this.changes.accountChanged(key.accountId);
    return { id: key.id, status: 'revoked' };
  }
}
