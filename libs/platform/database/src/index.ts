export * from './data-source.factory';
export * from './database.module';
export * from './database-outage.util';
export * from './keyset-cursor.util';
export * from './prepared-query.util';
export * from './database-identity.util';
export * from './statements/typed-statements';
export * from './group-commit/group-commit';
