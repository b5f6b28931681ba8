export * from './account.row';
export * from './api-key.row';
