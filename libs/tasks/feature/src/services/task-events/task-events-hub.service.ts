import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { AppException } from '@genhub/errors';
import { PubSubChannel, PubSubService } from '@genhub/queue';
import { TaskRepository } from '@genhub/tasks-data-access';
import { TaskResultLoader } from '../task-result-loader.service';
import { QueuePositions } from './queue-positions.service';
import { TaskEventStream } from './task-event-stream';
import { TERMINAL_STAGE } from './task-event.types';

/** Open streams one account may hold on one gateway: a runaway page cannot hold a process. */
export const MAX_STREAMS_PER_ACCOUNT = 100;

/**
 * The cadence of the hub's one timer: queue positions every 2 s, a heartbeat
 * every 15 s, and every 30 s one batched re-read of every open stream's task
 * (the safety net for a notice that was published while Redis was away).
 */
export const HUB_TIMING = {
  tickMs: 1000,
  positionTicks: 2,
  heartbeatTicks: 15,
  reconcileTicks: 30,
};

/** How long the subscriptions outlive the last stream (a steady trickle keeps them). */
const IDLE_TICKS_BEFORE_UNSUBSCRIBE = 10;

/**
 * A new stream's task is read once more this many ticks after it opened: a
 * task-worker skips the `processing` notice for about a second after one
 * reached nobody (PubSubService.publishToListeners), so a claim made just as
 * the first stream opened shows here instead of at the reconcile pass.
 */
export const RECHECK_AFTER_TICKS = 3;

export interface OpenStreamInput {
  accountId: string;
  /** The key the caller came in with (see `streamsOf`). */
  apiKeyId: string;
  taskId: string;
  /** The stage the client has already seen (its Last-Event-ID), 0 when new. */
  lastStage: number;
  /** The task's result route, for the prediction views the events carry. */
  resultUrl: string;
}

/**
 * Live task events for the gateway's open streams, without polling
 * PostgreSQL per client: ONE subscription per process to the terminal and
 * status notices (held while streams are open), a map of streams by task,
 * and ONE timer for queue positions, heartbeats and the reconcile pass. A
 * notice is a hint: the stream's task is re-read (batched with every other
 * read of that turn by TaskResultLoader) and the stream sends what changed.
 */
@Injectable()
export class TaskEventsHub implements BeforeApplicationShutdown {
  private readonly logger = new Logger(TaskEventsHub.name);
  private readonly byTask = new Map<string, Set<TaskEventStream>>();
  private readonly perAccount = new Map<string, number>();
  private count = 0;
  /** Streams to read once more (RECHECK_AFTER_TICKS), with the tick they are due at. */
  private readonly recheck = new Map<TaskEventStream, number>();
  private subscribed?: Promise<() => void>;
  private ticker?: NodeJS.Timeout;
  private ticks = 0;
  private idleTicks = 0;
  private closing = false;
  /** See HUB_TIMING (tests shorten it). */
  timing = { ...HUB_TIMING };

  constructor(
    private readonly results: TaskResultLoader,
    private readonly tasks: TaskRepository,
    private readonly positions: QueuePositions,
    private readonly pubsub: PubSubService,
  ) {}

  /** Open streams on this process (the gateway's gauge). */
  get openStreams(): number {
    return this.count;
  }

  /**
   * Opens a stream of the caller's task, starting with its current status
   * (unless the client saw it already). Undefined when there is nothing left
   * to send: the client saw the terminal event. Throws not_found for an
   * unknown or foreign task, service_unavailable when notices cannot be had.
   */
  async open(input: OpenStreamInput): Promise<TaskEventStream | undefined> {
    if (this.closing) throw new AppException('service_unavailable');
    if ((this.perAccount.get(input.accountId) ?? 0) >= MAX_STREAMS_PER_ACCOUNT)
      throw new AppException('too_many_streams');
    if (input.lastStage >= TERMINAL_STAGE) {
      // Only the owner learns that: anyone else gets the 404 of an unknown task.
      if (!(await this.tasks.isOwnedBy(input.accountId, input.taskId)))
        throw new AppException('not_found');
      return undefined;
    }
    await this.subscribe();
    // Registered before the first read, so a notice arriving meanwhile is not missed.
    const stream = this.register(input);
    try {
      const task = await this.results.load(input.accountId, input.taskId);
      if (!task) {
        const resumedAfterDelete =
          input.lastStage > 0 && (await this.tasks.isOwnedBy(input.accountId, input.taskId));
        if (!resumedAfterDelete) throw new AppException('not_found');
      }
      stream.update(task);
    } catch (error) {
      await stream.return();
      throw error;
    }
    if (stream.waiting) void this.readPositions([stream]);
    return stream;
  }

  private register(input: OpenStreamInput): TaskEventStream {
    const stream = new TaskEventStream(
      input.accountId,
      input.apiKeyId,
      input.taskId,
      input.resultUrl,
      input.lastStage,
      (closed) => this.unregister(closed),
    );
    let set = this.byTask.get(input.taskId);
    if (!set) this.byTask.set(input.taskId, (set = new Set()));
    set.add(stream);
    this.recheck.set(stream, this.ticks + RECHECK_AFTER_TICKS);
    this.perAccount.set(input.accountId, (this.perAccount.get(input.accountId) ?? 0) + 1);
    this.count++;
    this.ensureTicker();
    return stream;
  }

  /**
   * The open streams of one account, or of every account: the gateway ends
   * those whose key was revoked or whose account was suspended
   * (`stream.end()`, decision 0129).
   */
  streamsOf(accountId?: string): TaskEventStream[] {
    const all = [...this.byTask.values()].flatMap((set) => [...set]);
    return accountId === undefined ? all : all.filter((stream) => stream.accountId === accountId);
  }

  private unregister(stream: TaskEventStream): void {
    this.recheck.delete(stream);
    const set = this.byTask.get(stream.taskId);
    if (!set?.delete(stream)) return;
    if (!set.size) this.byTask.delete(stream.taskId);
    const left = (this.perAccount.get(stream.accountId) ?? 1) - 1;
    if (left) this.perAccount.set(stream.accountId, left);
    else this.perAccount.delete(stream.accountId);
    this.count--;
  }

  /** Both notice channels, once per process; a failure is not kept (the next open tries again). */
  private subscribe(): Promise<() => void> {
    this.subscribed ??= (async () => {
      const wake = (taskId: string) => this.refresh(this.byTask.get(taskId));
      const stopReconnect = this.pubsub.onReconnect(() => this.refreshAll());
      try {
        const offs = await Promise.all(
          [PubSubChannel.TaskTerminal, PubSubChannel.TaskStatus].map((channel) =>
            this.pubsub.subscribe(channel, wake),
          ),
        );
        return () => {
          stopReconnect();
          for (const off of offs) off();
        };
      } catch (error) {
        stopReconnect();
        this.logger.warn(`task notices unavailable: ${(error as Error).message}`);
        throw new AppException('service_unavailable');
      }
    })().catch((error: unknown) => {
      this.subscribed = undefined;
      throw error;
    });
    return this.subscribed;
  }

  private refresh(streams: Iterable<TaskEventStream> | undefined): void {
    for (const stream of streams ?? []) {
      this.results.load(stream.accountId, stream.taskId).then(
        (task) => stream.update(task),
        // PostgreSQL away: the next notice or reconcile pass reads again.
        (error: Error) => this.logger.warn(`task ${stream.taskId}: ${error.message}`),
      );
    }
  }

  private refreshAll(): void {
    this.recheck.clear();
    for (const set of this.byTask.values()) this.refresh(set);
  }

  private async readPositions(streams: TaskEventStream[]): Promise<void> {
    try {
      const positions = await this.positions.of([...new Set(streams.map((s) => s.taskId))]);
      for (const stream of streams) stream.updatePosition(positions.get(stream.taskId));
    } catch (error) {
      this.logger.warn(`queue positions: ${(error as Error).message}`);
    }
  }

  private ensureTicker(): void {
    this.idleTicks = 0;
    if (this.ticker) return;
    this.ticker = setInterval(() => this.tick(), this.timing.tickMs);
    this.ticker.unref();
  }

  private tick(): void {
    this.ticks++;
    if (!this.count) {
      if (++this.idleTicks >= IDLE_TICKS_BEFORE_UNSUBSCRIBE) this.stopTicker();
      return;
    }
    this.idleTicks = 0;
    const all = [...this.byTask.values()].flatMap((set) => [...set]);
    if (this.ticks % this.timing.positionTicks === 0)
      void this.readPositions(all.filter((stream) => stream.waiting));
    if (this.ticks % this.timing.heartbeatTicks === 0) for (const s of all) s.heartbeat();
    if (this.ticks % this.timing.reconcileTicks === 0) this.refreshAll();
    else this.refreshDue();
  }

  private refreshDue(): void {
    const due: TaskEventStream[] = [];
    for (const [stream, at] of this.recheck) if (at <= this.ticks) due.push(stream);
    for (const stream of due) this.recheck.delete(stream);
    if (due.length) this.refresh(due);
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
    const subscribed = this.subscribed;
    this.subscribed = undefined;
    void subscribed?.then((unsubscribe) => unsubscribe()).catch(() => undefined);
  }

  /**
   * Shutdown: end every stream now (clients resume elsewhere with
   * Last-Event-ID), before the HTTP server drains its requests.
   */
  beforeApplicationShutdown(): void {
    this.closing = true;
    for (const set of this.byTask.values()) for (const stream of set) stream.end();
    this.stopTicker();
  }
}
