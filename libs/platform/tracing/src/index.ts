export * from './start-tracing.util';
