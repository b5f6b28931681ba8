import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { PubSubChannel, PubSubService } from '@genhub/queue';

export class TaskCancelledError extends Error {
  constructor(readonly taskId: string) {
    super(`task ${taskId} was deleted`);
    this.name = 'TaskCancelledError';
  }
}

/**
 * The runs in flight in this process, by task id. One subscription to
 * PubSubChannel.TaskCancel aborts the matching run's AbortSignal when its task is
 * deleted while processing.
 */
@Injectable()
export class TaskCancellation implements OnApplicationShutdown {
  private readonly logger = new Logger(TaskCancellation.name);
  private readonly running = new Map<string, AbortController>();
  private subscribed?: Promise<() => void>;

  constructor(private readonly pubsub: PubSubService) {}

  async listen(): Promise<void> {
    this.subscribed ??= this.pubsub.subscribe(PubSubChannel.TaskCancel, (id) => this.cancel(id));
    try {
      await this.subscribed;
    } catch (error) {
      this.subscribed = undefined;
      this.logger.warn(`cannot subscribe to cancellations: ${(error as Error).message}`);
    }
  }

  register(taskId: string, controller: AbortController): () => void {
    this.running.set(taskId, controller);
    return () => {
      if (this.running.get(taskId) === controller) this.running.delete(taskId);
    };
  }

  cancel(taskId: string): boolean {
    const controller = this.running.get(taskId);
    if (!controller) return false;
    controller.abort(new TaskCancelledError(taskId));
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    (await this.subscribed?.catch(() => undefined))?.();
  }
}
