export * from './redis-cleanup.util';
export * from './test-database.util';
export * from './in-memory-object-storage.util';

export * from './webhook-receiver.util';
export * from './fake-upstreams/openai-chat.util';
export * from './fake-upstreams';
export * from './in-memory-storage.module';
export * from './tcp-proxy.util';
export * from './built-app.util';
export * from './wait-for.util';
export * from './task-rows.util';
export * from './sole-processor.util';
export * from './built-platform.util';
export * from './local-platform.util';
export * from './chromium.util';
export * from './axe.util';
