export * from './start-tracing';
