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

  async execute(keyId: string): Promise<RevokedApiKeyDto> {
    const key = await this.keys.revokeKey(keyId);
    if (!key) throw new AppException(AppErrorCode.NotFound);
    await this.changes.accountChanged(key.accountId);
    return { id: key.id, status: 'revoked' };
  }
}
