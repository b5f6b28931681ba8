export * from './outputs.util';
export * from './polling.util';
export * from './upstream-request.util';
export * from './upstream-status.util';
