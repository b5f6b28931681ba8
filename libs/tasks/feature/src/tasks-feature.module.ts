import { DynamicModule, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { ProvidersModule } from '@genhub/providers';
import { TasksDataAccessModule } from '@genhub/tasks-data-access';
import { MEDIA_FETCHER } from './ports/media-fetcher.port';
import { EstimatedDurationService } from './services/estimated-duration.service';
import { StorageMediaFetcher } from './services/storage-media-fetcher.service';
import { OutboxRelay } from './services/outbox-relay.service';
import { SyncWaiter } from './services/sync-waiter.service';
import { TaskCancellation } from './services/task-cancellation.service';
import { TaskFinisher } from './services/task-finisher.service';
import { TaskResultLoader } from './services/task-result-loader.service';
import { QueuePositions } from './services/task-events/queue-positions.service';
import { TaskEventsHub } from './services/task-events/task-events-hub.service';
import { EventsTokens } from './use-cases/task-events/events-token.service';
import { IssueEventsTokenUseCase } from './use-cases/task-events/issue-events-token.use-case';
import { WatchTaskUseCase } from './use-cases/task-events/watch-task.use-case';
import { GetResultUseCase } from './use-cases/get-result/get-result.use-case';
import { ListTasksUseCase } from './use-cases/list-tasks/list-tasks.use-case';
import { ListModelsUseCase } from './use-cases/list-models/list-models.use-case';
import { RunTaskUseCase } from './use-cases/run-task/run-task.use-case';
import { SubmitTaskUseCase } from './use-cases/submit-task/submit-task.use-case';
import { SyncSubmitUseCase } from './use-cases/submit-task/sync-submit.use-case';
import { SweepStuckTasksUseCase } from './use-cases/sweep-stuck-tasks/sweep-stuck-tasks.use-case';

const GATEWAY_USE_CASES = [
  SubmitTaskUseCase,
  SyncSubmitUseCase,
  GetResultUseCase,
  ListModelsUseCase,
  ListTasksUseCase,
  IssueEventsTokenUseCase,
  WatchTaskUseCase,
];

export interface TasksGatewayOptions {
  /** Modules the reservation provider needs (e.g. BillingDataAccessModule). */
  imports?: ModuleMetadata['imports'];
  /** Binds RESERVATION_PORT. */
  reservation: Provider;
}

export interface TasksWorkerOptions {
  /** Modules the settlement provider needs (e.g. BillingDataAccessModule). */
  imports?: ModuleMetadata['imports'];
  /** Binds SETTLEMENT_PORT. */
  settlement: Provider;
  /** Binds WEBHOOK_DELIVERY_PORT. */
  webhookDelivery: Provider;
}

/**
 * The tasks domain for each app. Both run the outbox relay; the gateway gets
 * the request use-cases, the task-worker RunTask and the stuck-task sweeper. OBJECT_STORAGE (StorageModule)
 * and the queues (QueueModule) must be registered by the app.
 */
@Module({})
export class TasksFeatureModule {
  static forGateway(options: TasksGatewayOptions): DynamicModule {
    return {
      module: TasksFeatureModule,
      imports: [ProvidersModule, TasksDataAccessModule, ...(options.imports ?? [])],
      providers: [
        options.reservation,
        OutboxRelay,
        EstimatedDurationService,
        SyncWaiter,
        TaskResultLoader,
        QueuePositions,
        TaskEventsHub,
        EventsTokens,
        ...GATEWAY_USE_CASES,
      ],
      exports: [
        ...GATEWAY_USE_CASES,
        OutboxRelay,
        SyncWaiter,
        EstimatedDurationService,
        TaskEventsHub,
        EventsTokens,
      ],
    };
  }

  static forWorker(options: TasksWorkerOptions): DynamicModule {
    return {
      module: TasksFeatureModule,
      imports: [ProvidersModule, TasksDataAccessModule, ...(options.imports ?? [])],
      providers: [
        options.settlement,
        options.webhookDelivery,
        OutboxRelay,
        TaskCancellation,
        { provide: MEDIA_FETCHER, useClass: StorageMediaFetcher },
        TaskFinisher,
        RunTaskUseCase,
        SweepStuckTasksUseCase,
      ],
      exports: [RunTaskUseCase, SweepStuckTasksUseCase, OutboxRelay, TaskCancellation],
    };
  }
}
