import type { StoredAccount } from '@genhub/accounts-data-access';
import type { BalanceSnapshot } from '../ports/account-balances.port';

/** An account with its ledger balance, as the admin use-cases return it. */
export interface AccountView {
  account: StoredAccount;
  balance: BalanceSnapshot;
}
