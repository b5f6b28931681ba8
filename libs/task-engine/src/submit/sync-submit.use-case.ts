import { Injectable } from '@nestjs/common';
import type { TaskResultBody } from '@genhub/contracts/server';
import { TaskConfig } from '@genhub/config';
import { TaskRepository } from '@genhub/tasks-data-access';
import { SyncWaiter, toResultView } from '@genhub/tasks-feature';
import { SubmitTaskInput, SubmitTaskUseCase } from './submit-task.use-case';

/**
 * `?sync=true`: submits, then waits for the terminal notice (no polling) up to
 * SYNC_TIMEOUT_MS; answers the result object, or `{id, status: "processing"}`.
 */
@Injectable()
export class SyncSubmitUseCase {
  constructor(
    private readonly submit: SubmitTaskUseCase,
    private readonly waiter: SyncWaiter,
    private readonly tasks: TaskRepository,
    private readonly config: TaskConfig,
  ) {}

  /** `timeoutMs`: a shorter wait than SYNC_TIMEOUT_MS, as the caller asked (never a longer one). */
  async execute(input: SubmitTaskInput, timeoutMs?: number): Promise<TaskResultBody> {
    // Subscribe before the task can finish, so its notice cannot be missed.
    const release = await this.waiter.hold();
    try {
      const ack = await this.submit.execute(input);
      const wait = Math.min(timeoutMs ?? Infinity, this.config.SYNC_TIMEOUT_MS);
      const deadline = Date.now() + wait;
      for (;;) {
        const watch = this.waiter.watch(ack.id, Math.max(0, deadline - Date.now()));
        const task = await this.tasks.findOwnedTask(input.accountId, ack.id);
        const view: TaskResultBody = task
          ? toResultView(task)
          : { id: ack.id, status: 'processing' };
        if (view.status !== 'processing' || !task || Date.now() >= deadline) {
          watch.cancel();
          return view;
        }
        if (!(await watch.done) && (Date.now() >= deadline || this.waiter.closing)) return view;
      }
    } finally {
      release();
    }
  }
}
