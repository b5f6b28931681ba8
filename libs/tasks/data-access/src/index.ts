export * from './entities/task.entity';
export * from './lifecycle/task-lifecycle.util';
export * from './migrations';
export * from './repositories/outbox.repository';
export * from './repositories/sql-fragment.util';
export * from './repositories/task.repository';
export * from './tasks-data-access.module';
