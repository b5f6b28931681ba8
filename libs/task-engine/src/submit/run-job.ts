import type { AccountLevel } from '@genhub/contracts';
import type { RunTaskJob } from '@genhub/queue';

/**
 * A new task's run job: ids only (the worker claims the task and reads it in
 * one statement), and how its account is scheduled (the fair stage's line,
 * weight and cap).
 */
export function runJob(
  task: { id: string },
  submitted: {
    accountId: string;
    accountLevel: AccountLevel;
    maxConcurrentTasks?: number | null;
    requestId?: string;
  },
): RunTaskJob {
  return {
    v: 1,
    taskId: task.id,
    requestId: submitted.requestId,
    accountId: submitted.accountId,
    level: submitted.accountLevel,
    ...(submitted.maxConcurrentTasks ? { maxConcurrentTasks: submitted.maxConcurrentTasks } : {}),
  };
}
