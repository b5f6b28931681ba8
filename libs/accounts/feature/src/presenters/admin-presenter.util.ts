import type { AdminAccountDto, BillingRecordDto } from '@genhub/contracts/server';
import { fromMicros } from '@genhub/money';
import type { TopUpRecord } from '../ports/account-balances.port';
import type { AccountView } from '../use-cases/account-view.types';

/** extensions.md §2: the admin account object. `balance` is net of reservations. */
export function presentAdminAccount(
  view: AccountView,
  options: { withWebhookSecret?: boolean } = {},
): AdminAccountDto {
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
export function presentTopUpRecord(record: TopUpRecord): BillingRecordDto {
  return {
    id: record.id,
    date: record.createdAt.toISOString().slice(0, 10),
    type: 'top-up',
    amount: fromMicros(record.amountUnits),
    balance_after: fromMicros(record.balanceAfterUnits),
  };
}
