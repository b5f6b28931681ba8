import type { RunTaskJob } from '@genhub/queue';
import type { NewTask } from '@genhub/tasks-data-access';

/**
 * A run job carries its task's fixed fields (version 2, decision 0122) when
 * the input is at most this large as JSON; a larger input stays in the row
 * only (version 1: the worker claims and reads it), keeping queued jobs small.
 */
export const RUN_JOB_MAX_INPUT_BYTES = 4 * 1024;

/** The run job of a new task: with the task's fixed fields unless its input is large. */
export function runJob(task: NewTask, requestId: string | undefined): RunTaskJob {
  if (Buffer.byteLength(JSON.stringify(task.input)) > RUN_JOB_MAX_INPUT_BYTES)
    return { v: 1, taskId: task.id, requestId };
  return {
    v: 2,
    taskId: task.id,
    requestId,
    task: {
      accountId: task.accountId,
      model: task.model,
      channel: task.channel,
      category: task.category,
      input: task.input,
      webhookUrl: task.webhookUrl,
      outputPrefix: task.outputPrefix,
      priceUnits: task.priceUnits,
      timeLimitMs: task.timeLimitMs,
      // Stamped with the row's created_at by the statement that writes it.
      createdAt: '',
    },
  };
}
