import type { TaskResultFields } from '@genhub/tasks-data-access';
import { predictionOfTask } from '../../util/prediction-view.util';
import { EVENT_STAGE, type TaskEvent, TERMINAL_STAGE } from './task-event.types';
import type { QueuePosition } from './queue-positions.service';

/**
 * One client's stream of one task: turns what the hub reads of the task into
 * events, only ever forwards (a stale read never sends an older status), and
 * hands them out as an async iterator. Ends after the terminal event; the
 * consumer's `return()` (client gone) closes it early.
 */
export class TaskEventStream implements AsyncIterableIterator<TaskEvent> {
  /** The last stage the client was told of (its Last-Event-ID). */
  stage: number;
  private position?: number;
  private readonly queued: TaskEvent[] = [];
  private wakeConsumer?: () => void;
  private ended = false;
  private closed = false;

  constructor(
    readonly accountId: string,
    /** The key the client came in with: its revocation ends the stream. */
    readonly apiKeyId: string,
    readonly taskId: string,
    private readonly resultUrl: string,
    lastStage: number,
    private readonly onClose: (stream: TaskEventStream) => void,
  ) {
    this.stage = lastStage;
  }

  /** Waiting for a worker: its status is still `created`. */
  get waiting(): boolean {
    return this.stage <= EVENT_STAGE.created && !this.ended;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The task as just read (undefined: it is gone, i.e. deleted). */
  update(task: TaskResultFields | undefined): void {
    if (this.ended) return;
    if (!task) {
      this.push({
        type: 'status',
        name: 'deleted',
        stage: EVENT_STAGE.deleted,
        data: { id: this.taskId, status: 'deleted' },
      });
      return this.end();
    }
    if (task.status === 'deleted') return this.update(undefined);
    const stage = EVENT_STAGE[task.status];
    if (stage <= this.stage) return;
    this.stage = stage;
    this.push({
      type: 'status',
      name: task.status,
      stage,
      data: { ...predictionOfTask(task, this.resultUrl), status: task.status },
    });
    if (stage === TERMINAL_STAGE) this.end();
  }

  /** Its place in the queue, when known; sent only when the tasks ahead changed. */
  updatePosition(position: QueuePosition | undefined): void {
    if (position === undefined || position.ahead === this.position || !this.waiting) return;
    this.position = position.ahead;
    this.push({
      type: 'queue',
      data: {
        id: this.taskId,
        queue_position: position.ahead,
        estimated_start_ms: position.estimatedStartMs,
      },
    });
  }

  heartbeat(): void {
    if (!this.ended && !this.queued.length) this.push({ type: 'heartbeat' });
  }

  /**
   * No more events (terminal, the server is shutting down, or the caller's
   * key was revoked); the consumer drains what is queued.
   */
  end(): void {
    this.ended = true;
    this.wakeConsumer?.();
  }

  private push(event: TaskEvent): void {
    this.queued.push(event);
    this.wakeConsumer?.();
  }

  async next(): Promise<IteratorResult<TaskEvent>> {
    for (;;) {
      const event = this.queued.shift();
      if (event) return { value: event, done: false };
      if (this.ended || this.closed) return this.return();
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
      this.wakeConsumer = undefined;
    }
  }

  /** The consumer is done (or gone): the hub forgets this stream. */
  async return(): Promise<IteratorResult<TaskEvent>> {
    if (!this.closed) {
      this.closed = true;
      this.ended = true;
      this.queued.length = 0;
      this.wakeConsumer?.();
      this.onClose(this);
    }
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<TaskEvent> {
    return this;
  }
}
