import { TaskCode, TaskFailureCode } from '@genhub/errors';
import { AdapterError } from '../../contract/model-adapter.types';

/**
 * The catalogue code of an upstream HTTP status when the body says nothing
 * more precise (decision 0080): bad input 400 → 1400, 413/422 → 1401,
 * 401/403 → 1403 (our key or account: not transient), 404 → 1405,
 * 408 → 5004, 402/429/5xx → 5003 (transient: the next route may serve it).
 */
export function codeForStatus(status: number): TaskFailureCode {
  if (status === 400) return TaskCode.MissingParameter;
  if (status === 413 || status === 422) return TaskCode.InvalidParameter;
  if (status === 401 || status === 403) return TaskCode.TaskExecutionFailed;
  if (status === 408) return TaskCode.Timeout;
  if (status === 402 || status === 429 || status >= 500) return TaskCode.ServiceUnavailable;
  return TaskCode.TaskFailed;
}

const INPUT_PROBLEMS = new Set<TaskFailureCode>([
  TaskCode.ContentModeration,
  TaskCode.MissingParameter,
  TaskCode.InvalidParameter,
  TaskCode.MediaAccessFailed,
]);

/** Upstream messages reach the client only for input problems (they explain what to change). */
export function upstreamError(
  code: TaskFailureCode,
  status: number,
  message?: string,
): AdapterError {
  const explainsInput = INPUT_PROBLEMS.has(code);
  return new AdapterError(
    code,
    explainsInput && message ? message : `upstream answered HTTP ${status}`,
  );
}

/** Words upstreams use when their safety system refused the input or the output. */
export const MODERATION_PATTERN =
  /nsfw|content.?policy|moderation|safety|flagged|sensitive content/i;
