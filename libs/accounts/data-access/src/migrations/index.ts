import { CreateAccountsSchema1763700000100 } from './1763700000100-CreateAccountsSchema';
import { IndexAccountsNewestFirst1763700000101 } from './1763700000101-IndexAccountsNewestFirst';
import { CreateAccountUploads1763700000102 } from './1763700000102-CreateAccountUploads';
import { AddAccountMaxConcurrentTasks1763700000103 } from './1763700000103-AddAccountMaxConcurrentTasks';
import { AddApiKeySettings1763700000104 } from './1763700000104-AddApiKeySettings';

/** This domain's migrations, oldest first. Composed with the other domains' by the migrate command. */
export const ACCOUNTS_MIGRATIONS = [
  CreateAccountsSchema1763700000100,
  IndexAccountsNewestFirst1763700000101,
  CreateAccountUploads1763700000102,
  AddAccountMaxConcurrentTasks1763700000103,
  AddApiKeySettings1763700000104,
];
