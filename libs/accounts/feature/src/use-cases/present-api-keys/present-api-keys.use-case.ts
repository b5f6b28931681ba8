import { Inject, Injectable } from '@nestjs/common';
import type { StoredApiKey } from '@genhub/accounts-data-access';
import type { ApiKeyDto } from '@genhub/contracts/server';
import { ACCOUNT_BALANCES, AccountBalances } from '../../ports/account-balances.port';
import { presentApiKey } from '../../presenters/admin-presenter.util';

/**
 * Keys as the API shows them, each with what it has `spent` (its current
 * period's when it has a spend limit; everything since issue otherwise), read
 * from the ledger in one query for the whole list (issue 37).
 */
@Injectable()
export class PresentApiKeysUseCase {
  constructor(@Inject(ACCOUNT_BALANCES) private readonly balances: AccountBalances) {}

  async execute(keys: readonly StoredApiKey[], now = new Date()): Promise<ApiKeyDto[]> {
    const spent = await this.balances.keySpend(keys, now);
    return keys.map((key) => presentApiKey(key, spent.get(key.id) ?? 0, now));
  }
}
