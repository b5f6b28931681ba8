import type { PredictionDto, SubmitAckDto, TaskResultBody } from '@genhub/contracts/server';
import { TaskCode } from '@genhub/errors';
import type { TaskResultFields } from '@genhub/tasks-data-access';

/**
 * The error text of a sync wait that ran out while the task still runs: the
 * official WaveSpeed SDKs recognise it (with code 5004) as "poll later", not
 * as a failure.
 */
export const SYNC_TIMED_OUT_MESSAGE =
  'Sync mode timed out: the task is still processing; read its result at urls.get';

/** `/v1`'s created_at (UTC, no zone) as ISO 8601 with its zone. */
const withZone = (createdAt: string): string =>
  createdAt.endsWith('Z') ? createdAt : `${createdAt}Z`;

function prediction(
  fields: Pick<PredictionDto, 'id' | 'model' | 'status' | 'outputs' | 'created_at' | 'error'> & {
    code?: number;
    inference?: number;
  },
  resultUrl: string,
): PredictionDto {
  return {
    id: fields.id,
    model: fields.model,
    status: fields.status,
    outputs: fields.outputs,
    urls: { get: resultUrl },
    has_nsfw_contents: fields.outputs.map(() => false),
    created_at: fields.created_at,
    error: fields.error,
    ...(fields.code !== undefined ? { code: fields.code } : {}),
    timings: { inference: fields.inference ?? 0 },
  };
}

/** The v3 view of an asynchronous submit's acknowledgement. */
export function predictionOfAck(
  ack: SubmitAckDto,
  model: string,
  createdAt: Date,
  resultUrl: string,
): PredictionDto {
  return prediction(
    {
      id: ack.id,
      model,
      status: 'created',
      outputs: [],
      created_at: createdAt.toISOString(),
      error: '',
    },
    resultUrl,
  );
}

/** The v3 view of a task row (the result route). */
export function predictionOfTask(task: TaskResultFields, resultUrl: string): PredictionDto {
  const status =
    task.status === 'completed' || task.status === 'failed' ? task.status : 'processing';
  return prediction(
    {
      id: task.id,
      model: task.model,
      status,
      outputs: task.status === 'completed' ? (task.outputs ?? []) : [],
      created_at: task.createdAt.toISOString(),
      error: task.status === 'failed' ? (task.error ?? '') : '',
      ...(task.status === 'failed' ? { code: task.code ?? TaskCode.InternalError } : {}),
      inference: task.timings?.api_call ?? 0,
    },
    resultUrl,
  );
}

/**
 * The v3 view of a sync submit's answer: the result object when the task
 * ended, or, when the wait ran out, `processing` with the time-out marks.
 */
export function predictionOfSyncResult(
  result: TaskResultBody,
  submitted: { model: string; createdAt: Date },
  resultUrl: string,
): PredictionDto {
  if (result.status === 'processing')
    return prediction(
      {
        id: result.id,
        model: submitted.model,
        status: 'processing',
        outputs: [],
        created_at: submitted.createdAt.toISOString(),
        error: SYNC_TIMED_OUT_MESSAGE,
        code: TaskCode.Timeout,
      },
      resultUrl,
    );
  return prediction(
    {
      id: result.id,
      model: result.model,
      status: result.status,
      outputs: result.outputs,
      created_at: withZone(result.created_at),
      error: result.error ?? '',
      ...(result.status === 'failed' ? { code: result.code } : {}),
      inference: result.status === 'completed' ? result.timings.api_call : 0,
    },
    resultUrl,
  );
}
