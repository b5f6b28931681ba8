import { Module } from '@nestjs/common';
import { OutboxRepository } from './repositories/outbox.repository';
import { TaskHistoryRepository } from './repositories/task-history.repository';
import { TaskRepository } from './repositories/task.repository';

@Module({
  providers: [TaskRepository, TaskHistoryRepository, OutboxRepository],
  exports: [TaskRepository, TaskHistoryRepository, OutboxRepository],
})
export class TasksDataAccessModule {}
