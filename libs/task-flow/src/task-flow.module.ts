import { DynamicModule, Module } from '@nestjs/common';
import { BillingDataAccessModule } from '@genhub/billing-data-access';
import { TasksDataAccessModule } from '@genhub/tasks-data-access';
import { WebhooksDataAccessModule } from '@genhub/webhooks-data-access';
import { ChatFeatureModule } from '@genhub/chat-feature';
import { TasksFeatureModule } from '@genhub/tasks-feature';
import { ledgerChat, ledgerReservation, ledgerSettlement } from './ledger/ledger-ports.providers';
import { DeleteTaskUseCase } from './use-cases/delete-task/delete-task.use-case';
import { webhookDelivery } from './webhooks/webhook-delivery.provider';

/**
 * A task's whole flow across domains, one entry per app: the tasks domain
 * with its money ports bound to the ledger, and the use-cases that span
 * tasks, billing and webhooks (decision 0106). Apps import these and nothing
 * else to get tasks; they still register the queues (QueueModule) and
 * OBJECT_STORAGE (StorageModule) where they need them.
 */
@Module({})
export class TaskFlowModule {
  /** Submit (reserving in the task's statement), results, sync, delete, models. */
  static forGateway(): DynamicModule {
    return {
      module: TaskFlowModule,
      imports: [
        TasksDataAccessModule,
        TasksFeatureModule.forGateway({
          imports: [BillingDataAccessModule],
          reservation: ledgerReservation,
        }),
      ],
      providers: [DeleteTaskUseCase],
      exports: [TasksFeatureModule, DeleteTaskUseCase],
    };
  }

  /** Runs (settling in the run's terminal statement) and the stuck-task sweeper. */
  static forWorker(): DynamicModule {
    return {
      module: TaskFlowModule,
      imports: [
        TasksFeatureModule.forWorker({
          imports: [BillingDataAccessModule, WebhooksDataAccessModule],
          settlement: ledgerSettlement,
          webhookDelivery,
        }),
      ],
      exports: [TasksFeatureModule],
    };
  }

  /** Chat completions, billed on the ledger. */
  static forChat(): DynamicModule {
    return {
      module: TaskFlowModule,
      imports: [
        ChatFeatureModule.forGateway({ imports: [BillingDataAccessModule], ledger: ledgerChat }),
      ],
      exports: [ChatFeatureModule],
    };
  }
}
