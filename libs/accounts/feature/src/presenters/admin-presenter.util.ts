import type { StoredApiKey } from '@genhub/accounts-data-access';
import type {
  AdminAccountDto,
  AdminAccountPageDto,
  AdminApiKeyDto,
  BillingRecordDto,
} from '@genhub/contracts/server';
import { fromMicros } from '@genhub/money';
import type { TopUpRecord } from '../ports/account-balances.port';
import type { AccountView } from '../use-cases/account-view.types';
import type { AccountPage } from '../use-cases/list-accounts/list-accounts.use-case';

/** The admin account object (docs/interface.md, "Admin API"). `balance` is net of reservations. */
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
    max_concurrent_tasks: account.maxConcurrentTasks,
    ...(options.withWebhookSecret ? { webhook_secret: account.webhookSecret } : {}),
  };
}

/** The billing record of a top-up (docs/interface.md, "Billing record"). */
export function presentTopUpRecord(record: TopUpRecord): BillingRecordDto {
  return {
    id: record.id,
    date: record.createdAt.toISOString().slice(0, 10),
    type: 'top-up',
    amount: fromMicros(record.amountUnits),
    balance_after: fromMicros(record.balanceAfterUnits),
  };
}

/** A page of `GET /admin/v1/accounts`: each account as the single read shows it. */
export function presentAdminAccountPage(page: AccountPage): AdminAccountPageDto {
  return {
    data: page.views.map((view) => presentAdminAccount(view)),
    next_cursor: page.nextCursor,
  };
}

/** An API key for the operator: what it is and when, never the key or its hash. */
export function presentAdminApiKey(key: StoredApiKey): AdminApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    status: key.revokedAt ? 'revoked' : 'active',
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}
