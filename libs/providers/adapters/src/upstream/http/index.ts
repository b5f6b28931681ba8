export * from './outputs';
export * from './polling';
export * from './upstream-request';
export * from './upstream-status';
