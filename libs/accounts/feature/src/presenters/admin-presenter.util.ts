import type { StoredApiKey } from '@genhub/accounts-data-access';
import type {
  AdminAccountDto,
  AdminAccountPageDto,
  ApiKeyDto,
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

/**
 * An API key with its settings and spend (issue 37), as the operator and the
 * account itself see it: never the key or its hash.
 */
export function presentApiKey(key: StoredApiKey, spentUnits: number, now = new Date()): ApiKeyDto {
  const expired = key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime();
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    status: key.revokedAt ? 'revoked' : expired ? 'expired' : 'active',
    allowed_models: key.allowedModels,
    spend_limit: key.spendLimit
      ? { amount: fromMicros(key.spendLimit.amountUnits), period: key.spendLimit.period }
      : null,
    spent: fromMicros(spentUnits),
    expires_at: key.expiresAt?.toISOString() ?? null,
    scopes: key.scopes,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}
