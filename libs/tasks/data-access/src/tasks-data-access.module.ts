import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TASKS_ENTITIES } from './entities/task.entity';
import { OutboxRepository } from './repositories/outbox.repository';
import { TaskRepository } from './repositories/task.repository';

@Module({
  imports: [TypeOrmModule.forFeature(TASKS_ENTITIES)],
  providers: [TaskRepository, OutboxRepository],
  exports: [TaskRepository, OutboxRepository],
})
export class TasksDataAccessModule {}
