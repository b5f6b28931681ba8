import { CreateAccountsSchema1763700000100 } from './1763700000100-CreateAccountsSchema';

/** This domain's migrations, oldest first. Composed with the other domains' by the migrate command. */
export const ACCOUNTS_MIGRATIONS = [CreateAccountsSchema1763700000100];
