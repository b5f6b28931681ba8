import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AccountBalances, BalanceSnapshot, TopUpRecord } from '@genhub/accounts-feature';
import type { StoredApiKey } from '@genhub/accounts-data-access';
import {
  type KeySpendKey,
  KeySpendRepository,
  LedgerRepository,
} from '@genhub/billing-data-access';
import type { Currency } from '@genhub/money';

/**
 * The accounts domain's view of the ledger, bound here because only apps span
 * domains: account creation opens the balance in the accounts transaction.
 */
@Injectable()
export class LedgerAccountBalances implements AccountBalances {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly keySpends: KeySpendRepository,
  ) {}

  open(
    manager: EntityManager,
    input: { accountId: string; currency: Currency; initialUnits: number },
  ): Promise<void> {
    return this.ledger.openAccount(input, manager);
  }

  async topUp(input: { accountId: string; amountUnits: number }): Promise<TopUpRecord | undefined> {
    const record = await this.ledger.topUp(input);
    return record
      ? {
          id: record.id,
          createdAt: record.createdAt,
          amountUnits: record.amountUnits,
          balanceAfterUnits: record.balanceAfterUnits,
        }
      : undefined;
  }

  async balanceOf(accountId: string): Promise<BalanceSnapshot | undefined> {
    const view = await this.ledger.balanceOf(accountId);
    return view
      ? { balanceUnits: view.balanceUnits, reservedUnits: view.reservedUnits }
      : undefined;
  }

  async balancesOf(accountIds: readonly string[]): Promise<Map<string, BalanceSnapshot>> {
    const views = await this.ledger.balancesOf(accountIds);
    return new Map(
      views.map((view) => [
        view.accountId,
        { balanceUnits: view.balanceUnits, reservedUnits: view.reservedUnits },
      ]),
    );
  }

  keySpend(keys: readonly StoredApiKey[], now: Date): Promise<Map<string, number>> {
    return this.keySpends.spentOf(keys.map(spendKey), now);
  }

  resetKeySpend(key: StoredApiKey, now: Date): Promise<void> {
    return this.keySpends.resetPeriod(spendKey(key), now);
  }
}

/** A key as the ledger's spend counters know it: its account and its limit's period. */
function spendKey(key: StoredApiKey): KeySpendKey {
  return { id: key.id, accountId: key.accountId, period: key.spendLimit?.period ?? null };
}
