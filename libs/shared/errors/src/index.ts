export * from './app-error-codes';
export * from './app.exception';
export * from './task-error-codes';
