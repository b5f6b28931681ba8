import { DynamicModule, Module } from '@nestjs/common';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import { ProvidersModule } from '@genhub/providers';
import { FairStage, fairStageProvider } from '@genhub/queue';
import { TasksDataAccessModule } from '@genhub/tasks-data-access';
import { TasksFeatureModule } from '@genhub/tasks-feature';
import { WebhooksDataAccessModule } from '@genhub/webhooks-data-access';
import { DeleteTaskUseCase } from './delete/delete-task.use-case';
import { TaskFinisher } from './finish/task-finisher.service';
import { WebhookWake } from './finish/webhook-wake.service';
import { OutboxRelay } from './outbox/outbox-relay.service';
import { OutboxVacuum } from './outbox/outbox-vacuum.service';
import { FairRunner } from './run/fair-runner.service';
import { MEDIA_FETCHER } from './run/media-fetcher.port';
import { RunOutputs } from './run/run-outputs.service';
import { RunTaskUseCase } from './run/run-task.use-case';
import { StartWebhook } from './run/start-webhook.service';
import { StorageMediaFetcher } from './run/storage-media-fetcher.service';
import { TaskCancellation } from './run/task-cancellation.service';
import { SubmitTaskUseCase } from './submit/submit-task.use-case';
import { SyncSubmitUseCase } from './submit/sync-submit.use-case';
import { SweepStuckTasksUseCase } from './sweep/sweep-stuck-tasks.use-case';

const DOMAINS = [
  ProvidersModule,
  TasksDataAccessModule,
  BillingDataAccessModule,
  WebhooksDataAccessModule,
];

/**
 * What happens to a task, one entry per app (trigger.dev's run engine is the
 * model; decision 0132): the engine composes the tasks, billing and webhooks
 * domains' typed steps into the statements that submit and end a task, and
 * owns the lifecycle and settlement rules. Apps still register the queues
 * (QueueModule) and OBJECT_STORAGE (StorageModule) where they need them.
 */
@Module({})
export class TaskEngineModule {
  /** Submit (reserving in the task's own statement), sync submit, delete; the task reads. */
  static forGateway(): DynamicModule {
    return {
      module: TaskEngineModule,
      imports: [...DOMAINS, TasksFeatureModule],
      providers: [
        fairStageProvider,
        OutboxVacuum,
        OutboxRelay,
        SubmitTaskUseCase,
        SyncSubmitUseCase,
        DeleteTaskUseCase,
      ],
      exports: [
        TasksFeatureModule,
        FairStage,
        OutboxRelay,
        SubmitTaskUseCase,
        SyncSubmitUseCase,
        DeleteTaskUseCase,
      ],
    };
  }

  /** Runs (settling in the run's terminal statement) and the stuck-task sweeper. */
  static forWorker(): DynamicModule {
    return {
      module: TaskEngineModule,
      imports: DOMAINS,
      providers: [
        fairStageProvider,
        OutboxVacuum,
        OutboxRelay,
        TaskCancellation,
        FairRunner,
        { provide: MEDIA_FETCHER, useClass: StorageMediaFetcher },
        TaskFinisher,
        WebhookWake,
        RunOutputs,
        StartWebhook,
        RunTaskUseCase,
        SweepStuckTasksUseCase,
      ],
      exports: [
        RunTaskUseCase,
        SweepStuckTasksUseCase,
        OutboxRelay,
        TaskCancellation,
        FairStage,
        FairRunner,
      ],
    };
  }
}
