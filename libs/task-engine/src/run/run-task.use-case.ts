import { Inject, Injectable, Logger } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { TaskCode, TaskFailureCode, isTaskFailureCode, taskErrorMessage } from '@genhub/errors';
import { AdapterError, AdapterRegistry, ModelCatalogue, ModelRoute } from '@genhub/providers';
import { PubSubChannel, PubSubService } from '@genhub/queue';
import { StoredTask, TaskRepository } from '@genhub/tasks-data-access';
import { TaskFinisher } from '../finish/task-finisher.service';
import { allowedSources } from '../rules/task-lifecycle.rules';
import { MEDIA_FETCHER, MediaFetcher } from './media-fetcher.port';
import { RunOutputs } from './run-outputs.service';
import { StartWebhook } from './start-webhook.service';
import { TaskCancellation, TaskCancelledError } from './task-cancellation.service';
import { measure } from './run-task.util';

export interface RunTaskInput {
  taskId: string;
  /** The request that created the task, passed on to the webhook job for log correlation. */
  requestId?: string;
  /**
   * The caller publishes the terminal notice itself (the fair runner, with
   * the take that reports the run's end); otherwise the finisher does.
   */
  announcesEnd?: boolean;
}

/**
 * How a run ended, for the processor's logs and metrics. `skipped`: the task
 * was no longer open (ended, deleted); `unknown-task`: this database holds no
 * such task (the job came from another installation's, decision 0126).
 */
export type RunTaskOutcome =
  'completed' | 'failed' | 'skipped' | 'superseded' | 'deleted' | 'unknown-task';

/** The outcome with the task's model and code (0 when completed; none when the run left no status). */
export interface RunTaskReport {
  outcome: RunTaskOutcome;
  model?: string;
  code?: number;
}

export class TaskTimeLimitError extends Error {
  constructor(readonly limitMs: number) {
    super(`time limit of ${limitMs} ms exceeded`);
    this.name = 'TaskTimeLimitError';
  }
}

interface Failure {
  code: TaskFailureCode;
  error: string;
}

/**
 * Runs one task. The run first claims it (created/processing → processing,
 * attempt + 1, the row read by the same statement); a task whose webhook asked
 * for its `start` event has it opened then (StartWebhook, once per task). The adapter runs with an AbortSignal (deletion,
 * time limit → 5004), outputs go under `outputs/{prefix}/{task}/…`, and
 * TaskFinisher ends the task (ONE statement: the conditional terminal update,
 * the settlement of its reservation and the DeliverWebhook outbox row). A run
 * that loses the race (superseded, deleted) removes its outputs. The status
 * notice follows a claim; the terminal notice is published after the commit.
 */
@Injectable()
export class RunTaskUseCase {
  private readonly logger = new Logger(RunTaskUseCase.name);

  constructor(
    private readonly tasks: TaskRepository,
    private readonly catalogue: ModelCatalogue,
    private readonly adapters: AdapterRegistry,
    @Inject(MEDIA_FETCHER) private readonly media: MediaFetcher,
    private readonly outputs: RunOutputs,
    private readonly cancellation: TaskCancellation,
    private readonly finisher: TaskFinisher,
    private readonly pubsub: PubSubService,
    private readonly starts: StartWebhook,
  ) {}

  /** Runs the task; says how it ended, which model ran and the task code it ended with. */
  async execute(input: RunTaskInput): Promise<RunTaskReport> {
    const report = await this.runOnce(input);
    if (report.outcome === 'skipped' && !(await this.tasks.holds(input.taskId)))
      return { outcome: 'unknown-task' };
    return report;
  }

  private async runOnce(input: RunTaskInput): Promise<RunTaskReport> {
    await this.cancellation.listen();
    const task = await this.claim(input.taskId);
    if (!task) return { outcome: 'skipped' };
    // A Replicate `start` webhook, before the model runs; nothing at all for other tasks.
    if (task.webhookFormat) await this.starts.open(task, input.requestId);
    return this.run(task, input);
  }

  /** One run of the claimed `task`. */
  private async run(task: StoredTask, input: RunTaskInput): Promise<RunTaskReport> {
    const { requestId } = input;
    const model = task.model;
    const claimedAt = Date.now();
    const startedAt = task.startedAt?.getTime() ?? claimedAt;
    const createdAt = task.createdAt.getTime();

    const controller = new AbortController();
    const unregister = this.cancellation.register(task.id, controller);
    const limit = setTimeout(
      () => controller.abort(new TaskTimeLimitError(task.timeLimitMs)),
      task.timeLimitMs,
    );
    let apiStart = claimedAt;
    let apiEnd = claimedAt;
    let saveEnd = claimedAt;
    const keys: string[] = [];
    let outcome: { outputs: string[] } | Failure;
    try {
      const model = this.catalogue.find(task.model);
      const routes = model?.channels[task.channel as keyof typeof model.channels] ?? [];
      if (!model || !routes.length) {
        outcome = {
          code: TaskCode.ServiceUnavailable,
          error: taskErrorMessage(TaskCode.ServiceUnavailable, 'model is not available'),
        };
      } else {
        const { channel: _channel, ...params } = task.input;
        const dto = plainToInstance(model.inputSchema, params) as Record<string, unknown>;
        apiStart = Date.now();
        const result = await this.runRoutes(task, routes, dto, controller.signal);
        apiEnd = Date.now();
        const outputs: string[] = [];
        for (const [index, output] of result.outputs.entries()) {
          if (controller.signal.aborted) throw controller.signal.reason;
          outputs.push(await this.outputs.store(task, index, output, keys));
        }
        saveEnd = Date.now();
        outcome = { outputs };
      }
    } catch (error) {
      apiEnd = apiEnd === claimedAt ? Date.now() : apiEnd;
      saveEnd = Date.now();
      const reason: unknown = controller.signal.reason;
      if (reason instanceof TaskCancelledError) {
        await this.outputs.discard(keys);
        return { outcome: 'deleted', model };
      }
      outcome = this.toFailure(controller.signal.aborted ? reason : error);
    } finally {
      clearTimeout(limit);
      unregister();
    }

    const finishedAt = Date.now();
    const timings = measure(createdAt, startedAt, claimedAt, apiStart, apiEnd, saveEnd, finishedAt);
    const ending =
      'outputs' in outcome
        ? { completed: { outputs: outcome.outputs, outputKeys: keys, timings } }
        : { failed: { ...outcome, timings } };
    const finished = await this.finisher.finish(task, ending, {
      requestId,
      notice: !input.announcesEnd,
    });
    if (!finished) {
      // Superseded by a later attempt, or deleted meanwhile: this run's outputs are not the task's.
      await this.outputs.discard(keys);
      return { outcome: 'superseded', model };
    }
    return finished.status === 'completed'
      ? { outcome: 'completed', model, code: TaskCode.Success }
      : {
          outcome: 'failed',
          model,
          code: 'code' in outcome ? outcome.code : TaskCode.InternalError,
        };
  }

  /** created/processing → processing (attempt + 1), with the status notice on a first claim. */
  private async claim(taskId: string): Promise<StoredTask | undefined> {
    const task = await this.tasks.claimForRun(taskId, allowedSources('processing'));
    if (task?.attempt === 1) this.announceProcessing(task.id);
    return task;
  }

  /** Tries the channel's routes in order; a transient failure falls over to the next. */
  private async runRoutes(
    task: StoredTask,
    routes: ModelRoute[],
    input: Record<string, unknown>,
    signal: AbortSignal,
  ) {
    let last: unknown;
    for (const route of routes) {
      try {
        return await this.adapters.get(route.adapter).run({
          taskId: task.id,
          input,
          route,
          signal,
          fetchMedia: (url, kind) => this.media.fetch(url, kind),
        });
      } catch (error) {
        last = error;
        if (signal.aborted || !(error instanceof AdapterError) || !error.transient) throw error;
      }
    }
    throw last;
  }

  /**
   * created → processing, for event streams; a hint (never awaited: the run
   * does not wait on Redis). Gateways listen only while streams are open, so
   * it is skipped while nobody does (a stream opened meanwhile re-reads its
   * task shortly after, TaskEventsHub).
   */
  private announceProcessing(taskId: string): void {
    this.pubsub
      .publishToListeners(PubSubChannel.TaskStatus, taskId)
      .catch((e: Error) => this.logger.warn(`status notice for ${taskId}: ${e.message}`));
  }

  private toFailure(error: unknown): Failure {
    if (error instanceof TaskTimeLimitError)
      return { code: TaskCode.Timeout, error: taskErrorMessage(TaskCode.Timeout) };
    if (error instanceof AdapterError && isTaskFailureCode(error.code)) {
      return { code: error.code, error: taskErrorMessage(error.code, error.detail) };
    }
    this.logger.error(`task run failed unexpectedly: ${(error as Error)?.stack ?? String(error)}`);
    return { code: TaskCode.InternalError, error: taskErrorMessage(TaskCode.InternalError) };
  }
}
