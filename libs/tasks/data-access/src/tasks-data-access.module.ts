import { Module } from '@nestjs/common';
import { OutboxRepository } from './repositories/outbox.repository';
import { TaskRepository } from './repositories/task.repository';

@Module({
  providers: [TaskRepository, OutboxRepository],
  exports: [TaskRepository, OutboxRepository],
})
export class TasksDataAccessModule {}
