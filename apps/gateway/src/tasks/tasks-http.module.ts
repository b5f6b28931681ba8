import { Module } from '@nestjs/common';
import { TaskEngineModule } from '@genhub/task-engine';
import { PublicLinks } from '../transport/public-links.service';
import { EventStreamRevocation } from './event-stream-revocation.service';
import { PredictionsController } from './predictions.controller';
import { QueueByAccountMetrics } from './queue-by-account.metrics';
import { TaskEventsController } from './task-events.controller';
import { TaskEventStreamsMetrics } from './task-event-streams.metrics';
import { TasksController } from './tasks.controller';

/**
 * The gateway's one task engine. Nest keys a dynamic module by its object: a
 * module that needs the engine (the admin API tells its `FairStage` of a new
 * cap) imports this very object, never a second `forGateway()` (a second
 * engine, with a second outbox relay).
 */
export const GATEWAY_TASK_ENGINE = TaskEngineModule.forGateway();

/**
 * Submit, result, sync, delete, history, live events and the model list, from the task engine (the
 * submit reserves on the ledger in the task's own statement). Needs the
 * global AccountsFeatureModule (ApiKeyGuard), StorageModule and QueueModule.
 */
@Module({
  imports: [GATEWAY_TASK_ENGINE],
  controllers: [TasksController, PredictionsController, TaskEventsController],
  providers: [TaskEventStreamsMetrics, QueueByAccountMetrics, EventStreamRevocation, PublicLinks],
})
export class TasksHttpModule {}
