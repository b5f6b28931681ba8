import { ACCOUNTS_MIGRATIONS } from '@genhub/accounts-data-access';
import { BILLING_MIGRATIONS } from '@genhub/billing-data-access';
import { TASKS_MIGRATIONS } from '@genhub/tasks-data-access';
import { WEBHOOKS_MIGRATIONS } from '@genhub/webhooks-data-access';

/** Every domain keeps its own migrations; the platform applies them together, oldest first per domain. */
export const ALL_MIGRATIONS = [
  ...ACCOUNTS_MIGRATIONS,
  ...TASKS_MIGRATIONS,
  ...BILLING_MIGRATIONS,
  ...WEBHOOKS_MIGRATIONS,
];
