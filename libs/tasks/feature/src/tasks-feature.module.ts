import { Module } from '@nestjs/common';
import { ProvidersModule } from '@genhub/providers';
import { fairStageProvider } from '@genhub/queue';
import { TasksDataAccessModule } from '@genhub/tasks-data-access';
import { AccountQueueSummaries } from './services/account-queue-summaries.service';
import { EstimatedDurationService } from './services/estimated-duration.service';
import { SyncWaiter } from './services/sync-waiter.service';
import { TaskResultLoader } from './services/task-result-loader.service';
import { QueuePositions } from './services/task-events/queue-positions.service';
import { TaskEventsHub } from './services/task-events/task-events-hub.service';
import { EventsTokens } from './use-cases/task-events/events-token.service';
import { IssueEventsTokenUseCase } from './use-cases/task-events/issue-events-token.use-case';
import { WatchTaskUseCase } from './use-cases/task-events/watch-task.use-case';
import { GetResultUseCase } from './use-cases/get-result/get-result.use-case';
import { ListTasksUseCase } from './use-cases/list-tasks/list-tasks.use-case';
import { ListModelsUseCase } from './use-cases/list-models/list-models.use-case';
import { ListQueueAccountsUseCase } from './use-cases/list-queue-accounts/list-queue-accounts.use-case';

const READS = [
  GetResultUseCase,
  ListModelsUseCase,
  ListTasksUseCase,
  ListQueueAccountsUseCase,
  AccountQueueSummaries,
  IssueEventsTokenUseCase,
  WatchTaskUseCase,
  EstimatedDurationService,
  SyncWaiter,
  TaskEventsHub,
  EventsTokens,
];

/**
 * The tasks domain's reads for the gateway: results, lists, models, the
 * estimated duration, live events and the synchronous wait. What happens to
 * a task (submit, run, end, delete, sweep) is the task engine's
 * (`@genhub/task-engine`).
 */
@Module({
  imports: [ProvidersModule, TasksDataAccessModule],
  providers: [...READS, TaskResultLoader, QueuePositions, fairStageProvider],
  exports: READS,
})
export class TasksFeatureModule {}
