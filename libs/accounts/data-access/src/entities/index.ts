export * from './account.entity';
export * from './api-key.entity';
