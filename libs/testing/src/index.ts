export * from './all-migrations';
export * from './redis-cleanup';
export * from './test-database';
export * from './webhook-receiver';
