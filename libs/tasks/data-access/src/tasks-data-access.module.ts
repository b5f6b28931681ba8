import { Module } from '@nestjs/common';
import { AccountQueueRepository } from './repositories/account-queue.repository';
import { OutboxRepository } from './repositories/outbox.repository';
import { TaskHistoryRepository } from './repositories/task-history.repository';
import { TaskRepository } from './repositories/task.repository';

@Module({
  providers: [TaskRepository, TaskHistoryRepository, AccountQueueRepository, OutboxRepository],
  exports: [TaskRepository, TaskHistoryRepository, AccountQueueRepository, OutboxRepository],
})
export class TasksDataAccessModule {}
