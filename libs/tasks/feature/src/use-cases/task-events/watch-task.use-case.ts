import { Injectable } from '@nestjs/common';
import { TaskEventStream } from '../../services/task-events/task-event-stream';
import { TaskEventsHub } from '../../services/task-events/task-events-hub.service';
import { TERMINAL_STAGE } from '../../services/task-events/task-event.types';

export interface WatchTaskInput {
  accountId: string;
  /** The key the caller came in with (its header, or the key its token names). */
  apiKeyId: string;
  taskId: string;
  /** The Last-Event-ID header, as sent. */
  lastEventId?: string;
  resultUrl: string;
}

/** A Last-Event-ID this API gave (a stage, 1–3); anything else starts afresh. */
function stageOf(lastEventId: string | undefined): number {
  const stage = Number(lastEventId);
  return Number.isInteger(stage) && stage >= 1 && stage <= TERMINAL_STAGE ? stage : 0;
}

/**
 * GET /api/v3/predictions/{id}/events: the caller's task as a stream of
 * status events from its current status on (a resumed stream skips what the
 * client saw). Undefined when the client already saw the end.
 */
@Injectable()
export class WatchTaskUseCase {
  constructor(private readonly hub: TaskEventsHub) {}

  execute(input: WatchTaskInput): Promise<TaskEventStream | undefined> {
    return this.hub.open({
      accountId: input.accountId,
      apiKeyId: input.apiKeyId,
      taskId: input.taskId,
      lastStage: stageOf(input.lastEventId),
      resultUrl: input.resultUrl,
    });
  }
}
