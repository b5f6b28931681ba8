import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';

export * from './account.entity';
export * from './api-key.entity';

export const ACCOUNTS_ENTITIES = [AccountEntity, ApiKeyEntity];
