export * from './app-error-codes.constants';
export * from './app.exception';
export * from './task-error-codes.constants';
