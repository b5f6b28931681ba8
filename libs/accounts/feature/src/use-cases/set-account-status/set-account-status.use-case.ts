import { Inject, Injectable } from '@nestjs/common';
import { AccountRepository, AccountStatus } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { AuthChangesPublisher } from '../../auth/auth-changes.service';
import { ACCOUNT_BALANCES, AccountBalances } from '../../ports/account-balances.port';
import { AccountView } from '../account-view.types';

/** Suspend (its keys answer 403 on every gateway within a second) or reactivate. */
@Injectable()
export class SetAccountStatusUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly changes: AuthChangesPublisher,
    @Inject(ACCOUNT_BALANCES) private readonly balances: AccountBalances,
  ) {}

  async execute(input: { accountId: string; status: AccountStatus }): Promise<AccountView> {
    const account = await this.accounts.setStatus(input.accountId, input.status);
    if (!account) throw new AppException(AppErrorCode.NotFound);
    await this.changes.accountChanged(account.id);
    const balance = (await this.balances.balanceOf(account.id)) ?? {
      balanceUnits: 0,
      reservedUnits: 0,
    };
    return { account, balance };
  }
}
