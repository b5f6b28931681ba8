import type { TaskStatus } from '@genhub/contracts';
import type { DeleteTaskAnswerDto, PredictionDto } from '@genhub/contracts/server';

/** The status events of a stream, in lifecycle order: the statuses a task shows, then `deleted`. */
export type TaskStatusEventName = TaskStatus | 'deleted';

/**
 * Each status event's SSE id: how far along the lifecycle the client has
 * been told. A stream resumed with `Last-Event-ID: n` sends only later
 * stages; the terminal stage ends the stream.
 */
export const EVENT_STAGE: Record<TaskStatusEventName, number> = {
  created: 1,
  processing: 2,
  completed: 3,
  failed: 3,
  deleted: 3,
};
export const TERMINAL_STAGE = 3;

/** What a task event stream carries, in order. */
export type TaskEvent =
  | {
      type: 'status';
      name: Exclude<TaskStatusEventName, 'deleted'>;
      stage: number;
      data: PredictionDto;
    }
  | { type: 'status'; name: 'deleted'; stage: number; data: DeleteTaskAnswerDto }
  /** Tasks ahead of this one in its queue, while it waits (sent when it changes). */
  | {
      type: 'queue';
      data: { id: string; queue_position: number; estimated_start_ms: number | null };
    }
  /** Nothing new: keeps proxies from closing an idle connection. */
  | { type: 'heartbeat' };
