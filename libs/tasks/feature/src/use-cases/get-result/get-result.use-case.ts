import { Injectable } from '@nestjs/common';
import type { TaskResultBody } from '@genhub/contracts/server';
import { AppException } from '@genhub/errors';
import { isTerminal, type TaskResultFields } from '@genhub/tasks-data-access';
import { TaskResultLoader } from '../../services/task-result-loader.service';
import { toResultView } from '../../util/task-views.util';

export interface GetResultInput {
  accountId: string;
  taskId: string;
}

export interface GetResultOutput {
  body: TaskResultBody;
  /** Seconds for the Retry-After header; set while the task is not terminal. */
  retryAfter?: number;
  /** The fields the body was made of, for another view of the same task (the v3 prediction). */
  task: TaskResultFields;
}

export const RESULT_RETRY_AFTER_SECONDS = 3;

/**
 * GET /v1/requests/{id}: one primary-key read scoped by account (batched
 * with concurrent polls by TaskResultLoader). Non-terminal
 * → `{id, status: "processing"}` + Retry-After; terminal → the full shape.
 * Deleted, unknown and foreign ids are all 404.
 */
@Injectable()
export class GetResultUseCase {
  constructor(private readonly results: TaskResultLoader) {}

  async execute(input: GetResultInput): Promise<GetResultOutput> {
    const task = await this.results.load(input.accountId, input.taskId);
    if (!task) throw new AppException('not_found');
    const body = toResultView(task);
    return isTerminal(task.status)
      ? { body, task }
      : { body, task, retryAfter: RESULT_RETRY_AFTER_SECONDS };
  }
}
