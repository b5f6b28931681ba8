import { Module } from '@nestjs/common';
import { AccountRepository } from './repositories/account.repository';
import { ApiKeyRepository } from './repositories/api-key.repository';
import { UploadRepository } from './repositories/upload.repository';

@Module({
  providers: [AccountRepository, ApiKeyRepository, UploadRepository],
  exports: [AccountRepository, ApiKeyRepository, UploadRepository],
})
export class AccountsDataAccessModule {}
