import { Module } from '@nestjs/common';
import { AccountRepository } from './repositories/account.repository';
import { ApiKeyRepository } from './repositories/api-key.repository';

@Module({
  providers: [AccountRepository, ApiKeyRepository],
  exports: [AccountRepository, ApiKeyRepository],
})
export class AccountsDataAccessModule {}
