import { Inject, Injectable } from '@nestjs/common';
import type { StoredApiKey } from '@genhub/accounts-data-access';
import { ACCOUNT_BALANCES, AccountBalances } from '../ports/account-balances.port';

/**
 * What each key has spent in its spend limit's current period (issue 37): the
 * one place the key answers (admin PATCH, `/api/v3/keys`) read `spent` from.
 */
@Injectable()
export class ApiKeySpend {
  constructor(@Inject(ACCOUNT_BALANCES) private readonly balances: AccountBalances) {}

  /** Micro-units per key, in the order of `keys`. */
  async spentUnits(keys: readonly StoredApiKey[], now = new Date()): Promise<number[]> {
    const spent = await this.balances.keySpend(keys, now);
    return keys.map((key) => spent.get(key.id) ?? 0);
  }
}
