import { fromMicros } from '@genhub/money';
import type { TopUpRecord } from '../ports/account-balances.port';
import type { AccountView } from '../use-cases/account-view';

/** extensions.md §2: the admin account object. `balance` is net of reservations. */
export interface AdminAccountBody {
  id: string;
  currency: string;
  account_level: string;
  balance: number;
  reserved: number;
  status: string;
  webhook_secret?: string;
}

export function presentAdminAccount(
  view: AccountView,
  options: { withWebhookSecret?: boolean } = {},
): AdminAccountBody {
  const { account, balance } = view;
  return {
    id: account.id,
    currency: account.currency,
    account_level: account.accountLevel,
    balance: fromMicros(balance.balanceUnits - balance.reservedUnits),
    reserved: fromMicros(balance.reservedUnits),
    status: account.status,
    ...(options.withWebhookSecret ? { webhook_secret: account.webhookSecret } : {}),
  };
}

/** interface.md "Billing record" for a top-up. */
export interface TopUpRecordBody {
  id: string;
  date: string;
  type: 'top-up';
  amount: number;
  balance_after: number;
}

export function presentTopUpRecord(record: TopUpRecord): TopUpRecordBody {
  return {
    id: record.id,
    date: record.createdAt.toISOString().slice(0, 10),
    type: 'top-up',
    amount: fromMicros(record.amountUnits),
    balance_after: fromMicros(record.balanceAfterUnits),
  };
}
