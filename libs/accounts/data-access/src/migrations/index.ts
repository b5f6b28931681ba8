import { CreateAccountsSchema1763700000100 } from './1763700000100-CreateAccountsSchema';
import { IndexAccountsNewestFirst1763700000101 } from './1763700000101-IndexAccountsNewestFirst';

/** This domain's migrations, oldest first. Composed with the other domains' by the migrate command. */
export const ACCOUNTS_MIGRATIONS = [
  CreateAccountsSchema1763700000100,
  IndexAccountsNewestFirst1763700000101,
];
