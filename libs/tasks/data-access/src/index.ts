export * from './entities/task.entity';
export * from './lifecycle/task-lifecycle';
export * from './migrations';
export * from './repositories/outbox.repository';
export * from './repositories/sql-fragment';
export * from './repositories/task.repository';
export * from './tasks-data-access.module';
