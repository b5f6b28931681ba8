import type { EntityManager } from 'typeorm';
import type { StoredApiKey } from '@genhub/accounts-data-access';
import type { Currency } from '@genhub/money';

/**
 * What the admin use-cases need from the ledger, which belongs to another
 * domain. The gateway app binds it to the billing lib's LedgerRepository, so
 * this lib never imports billing (only apps span domains).
 */
export interface AccountBalances {
  /** Opens the account's balance inside the caller's transaction (the one that creates the account). */
  open(
    manager: EntityManager,
    input: { accountId: string; currency: Currency; initialUnits: number },
  ): Promise<void>;
  /** Adds funds; undefined when the account has no balance. */
  topUp(input: { accountId: string; amountUnits: number }): Promise<TopUpRecord | undefined>;
  balanceOf(accountId: string): Promise<BalanceSnapshot | undefined>;
  /** The balances of several accounts in one read (a page of the account list); absent ones are missing. */
  balancesOf(accountIds: readonly string[]): Promise<Map<string, BalanceSnapshot>>;
  /**
   * What each key has spent (micro-units), by key id: a key with a spend limit
   * its current period's (UTC) open reservations and charges, a key without
   * one everything since it was issued (issue 37). One read for a page of keys.
   */
  keySpend(keys: readonly StoredApiKey[], now: Date): Promise<Map<string, number>>;
  /**
   * After a key's spend limit was set or changed: (re)initialises its current
   * period's counter from the key's charges and open reservations in the
   * period (decision 0135). A key without a limit: nothing to do.
   */
  resetKeySpend(key: StoredApiKey, now: Date): Promise<void>;
}

export interface TopUpRecord {
  id: string;
  createdAt: Date;
  amountUnits: number;
  balanceAfterUnits: number;
}

export interface BalanceSnapshot {
  /** Sum of the account's records. */
  balanceUnits: number;
  /** Sum of its open reservations. */
  reservedUnits: number;
}

export const ACCOUNT_BALANCES = Symbol('AccountBalances');
