export * from './ledger/ledger-ports.providers';
export * from './settlement/settlement-rules';
export * from './task-flow.module';
export * from './use-cases/delete-task/delete-task.use-case';
