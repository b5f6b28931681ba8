export * from './data-source.factory';
export * from './database.module';
export * from './database-outage.util';
export * from './prepared-query.util';
