export * from './redis-cleanup';
export * from './test-database';
export * from './in-memory-object-storage';

export * from './webhook-receiver';
export * from './fake-upstreams/openai-chat';
export * from './fake-upstreams';
export * from './in-memory-storage.module';
export * from './tcp-proxy';
export * from './built-app';
export * from './wait-for.util';
export * from './task-rows.util';
export * from './sole-processor.util';
