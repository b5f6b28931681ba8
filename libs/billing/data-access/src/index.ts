export * from './billing-data-access.module';
export * from './entities';
export * from './migrations';
export * from './repositories/ledger.repository';
