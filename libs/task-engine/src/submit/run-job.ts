import type { RunTaskJob } from '@genhub/queue';

/** A new task's run job: ids only (the worker claims the task and reads it in one statement). */
export function runJob(taskId: string, requestId: string | undefined): RunTaskJob {
  return { v: 1, taskId, requestId };
}
