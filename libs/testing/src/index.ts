export * from './all-migrations';
export * from './redis-cleanup';
export * from './test-database';
export * from './in-memory-object-storage';

export * from './webhook-receiver';
