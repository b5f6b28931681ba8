import { Inject, Injectable } from '@nestjs/common';
import { AccountRepository } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { ACCOUNT_BALANCES, AccountBalances, TopUpRecord } from '../../ports/account-balances.port';

@Injectable()
export class TopUpAccountUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    @Inject(ACCOUNT_BALANCES) private readonly balances: AccountBalances,
  ) {}

  /** `amountUnits` > 0, in micro-units of the account's currency. */
  async execute(input: { accountId: string; amountUnits: number }): Promise<TopUpRecord> {
    const account = await this.accounts.findAccount(input.accountId);
    if (!account) throw new AppException(AppErrorCode.NotFound);
    const record = await this.balances.topUp({
      accountId: account.id,
      amountUnits: input.amountUnits,
    });
    if (!record) throw new AppException(AppErrorCode.NotFound);
    return record;
  }
}
