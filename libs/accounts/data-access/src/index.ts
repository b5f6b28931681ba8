export * from './accounts-data-access.module';
export * from './rows';
export * from './keys/api-key.util';
export * from './migrations';
export * from './repositories/account.repository';
export * from './repositories/api-key.repository';
export * from './repositories/upload.repository';
