import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountLevel, AccountRepository } from '@genhub/accounts-data-access';
import type { Currency } from '@genhub/money';
import { ACCOUNT_BALANCES, AccountBalances } from '../../ports/account-balances.port';
import { AccountView } from '../account-view.types';

export interface CreateAccountInput {
  currency: Currency;
  accountLevel: AccountLevel;
  /** Opening balance in micro-units (≥ 0); a positive one is the first top-up record. */
  initialUnits: number;
}

/** The account row and its ledger balance, in one transaction: both or neither. */
@Injectable()
export class CreateAccountUseCase {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accounts: AccountRepository,
    @Inject(ACCOUNT_BALANCES) private readonly balances: AccountBalances,
  ) {}

  async execute(input: CreateAccountInput): Promise<AccountView> {
    const account = await this.dataSource.transaction(async (manager) => {
      const created = await this.accounts.createAccount(
        { currency: input.currency, accountLevel: input.accountLevel },
        manager,
      );
      await this.balances.open(manager, {
        accountId: created.id,
        currency: created.currency,
        initialUnits: input.initialUnits,
      });
      return created;
    });
    return { account, balance: { balanceUnits: input.initialUnits, reservedUnits: 0 } };
  }
}
