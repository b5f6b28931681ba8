import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ACCOUNTS_ENTITIES } from './entities';
import { AccountRepository } from './repositories/account.repository';
import { ApiKeyRepository } from './repositories/api-key.repository';

@Module({
  imports: [TypeOrmModule.forFeature(ACCOUNTS_ENTITIES)],
  providers: [AccountRepository, ApiKeyRepository],
  exports: [AccountRepository, ApiKeyRepository],
})
export class AccountsDataAccessModule {}
