import { DynamicModule, Module, ModuleMetadata, Type } from '@nestjs/common';
import { AccountsDataAccessModule } from '@genhub/accounts-data-access';
import { AdminGuard } from './auth/admin.guard';
import { ApiKeyAuthenticator } from './auth/api-key-authenticator.service';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthChangesPublisher } from './auth/auth-changes.service';
import { ACCOUNT_BALANCES, AccountBalances } from './ports/account-balances.port';
import { ACCOUNT_SCHEDULING, AccountScheduling } from './ports/account-scheduling.port';
import { CreateAccountUseCase } from './use-cases/create-account/create-account.use-case';
import { GetAccountUseCase } from './use-cases/get-account/get-account.use-case';
import { IssueApiKeyUseCase } from './use-cases/issue-api-key/issue-api-key.use-case';
import { ListAccountsUseCase } from './use-cases/list-accounts/list-accounts.use-case';
import { ListApiKeysUseCase } from './use-cases/list-api-keys/list-api-keys.use-case';
import { OwnApiKeysUseCase } from './use-cases/own-api-keys/own-api-keys.use-case';
import { RotateWebhookSecretUseCase } from './use-cases/rotate-webhook-secret/rotate-webhook-secret.use-case';
import { RevokeApiKeyUseCase } from './use-cases/revoke-api-key/revoke-api-key.use-case';
import { SetAccountStatusUseCase } from './use-cases/set-account-status/set-account-status.use-case';
import { TopUpAccountUseCase } from './use-cases/top-up-account/top-up-account.use-case';
import { UpdateAccountUseCase } from './use-cases/update-account/update-account.use-case';
import { UpdateApiKeyUseCase } from './use-cases/update-api-key/update-api-key.use-case';
import { ApiKeySpend } from './keys/api-key-spend.service';

export interface AccountsFeatureOptions {
  /** Modules the adapters need (e.g. the billing data-access module). */
  imports?: ModuleMetadata['imports'];
  /** The ledger behind the admin use-cases, bound by the app. */
  balances: Type<AccountBalances>;
  /** The task scheduler told of an account's new level or cap, bound by the app. */
  scheduling: Type<AccountScheduling>;
}

const USE_CASES = [
  CreateAccountUseCase,
  GetAccountUseCase,
  IssueApiKeyUseCase,
  ListAccountsUseCase,
  ListApiKeysUseCase,
  OwnApiKeysUseCase,
  RevokeApiKeyUseCase,
  RotateWebhookSecretUseCase,
  SetAccountStatusUseCase,
  TopUpAccountUseCase,
  UpdateAccountUseCase,
  UpdateApiKeyUseCase,
];

/**
 * Authentication and the admin use-cases. Needs the global ConfigModule
 * (PepperConfig, AdminConfig), DatabaseModule and QueueModule (PubSubService).
 */
@Module({})
export class AccountsFeatureModule {
  static forRoot(options: AccountsFeatureOptions): DynamicModule {
    const exported = [
      ApiKeyGuard,
      ApiKeyAuthenticator,
      AdminGuard,
      AuthChangesPublisher,
      ApiKeySpend,
      ...USE_CASES,
    ];
    return {
      module: AccountsFeatureModule,
      global: true,
      imports: [AccountsDataAccessModule, ...(options.imports ?? [])],
      providers: [
        ...exported,
        { provide: ACCOUNT_BALANCES, useClass: options.balances },
        { provide: ACCOUNT_SCHEDULING, useClass: options.scheduling },
      ],
      exports: [...exported, AccountsDataAccessModule],
    };
  }
}
