export * from './ledger/ledger-ports.providers';
export * from './settlement/settlement-rules.util';
export * from './task-flow.module';
export * from './use-cases/delete-task/delete-task.use-case';
export * from './recovery/recovery-queues.service';
export * from './recovery/recovery.repository';
export * from './recovery/replay-webhooks.use-case';
export * from './recovery/requeue-open-tasks.use-case';
