export * from './billing-data-access.module';
export * from './rows';
export * from './migrations';
export * from './repositories/billing-history.repository';
export * from './repositories/ledger-audit.repository';
export * from './repositories/ledger.repository';
export * from './repositories/ledger.types';
export * from './repositories/billing-record-row.mapper';
