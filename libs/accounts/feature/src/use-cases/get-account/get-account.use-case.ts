import { Inject, Injectable } from '@nestjs/common';
import { AccountRepository } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { ACCOUNT_BALANCES, AccountBalances } from '../../ports/account-balances.port';
import { AccountView } from '../account-view.types';

@Injectable()
export class GetAccountUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    @Inject(ACCOUNT_BALANCES) private readonly balances: AccountBalances,
  ) {}

  async execute(accountId: string): Promise<AccountView> {
    const account = await this.accounts.findAccount(accountId);
    if (!account) throw new AppException(AppErrorCode.NotFound);
    const balance = (await this.balances.balanceOf(account.id)) ?? {
      balanceUnits: 0,
      reservedUnits: 0,
    };
    return { account, balance };
  }
}
