import { AdapterError } from '../../contract/model-adapter.types';
import { MODERATION_PATTERN, UpstreamAnswer, codeForStatus, jsonOf, upstreamError } from '../http';
import { TaskCode } from '@genhub/errors';

/** Replicate's problem body `{title, detail, status}` on a non-2xx answer → a catalogue code. */
export function replicateHttpError(answer: UpstreamAnswer): AdapterError {
  const body = (jsonOf(answer) ?? {}) as { detail?: unknown; title?: unknown };
  const detail = typeof body.detail === 'string' ? body.detail : undefined;
  const code = MODERATION_PATTERN.test(detail ?? '')
    ? TaskCode.ContentModeration
    : codeForStatus(answer.status);
  return upstreamError(code, answer.status, detail);
}

/**
 * A prediction that ended `failed`: its `error` string decides. Safety
 * refusals (NSFW) → 1200, anything else the model reported → 1403.
 */
export function replicateFailure(error: unknown): AdapterError {
  const message = typeof error === 'string' ? error : 'prediction failed';
  if (MODERATION_PATTERN.test(message))
    return new AdapterError(TaskCode.ContentModeration, message);
  return new AdapterError(TaskCode.TaskExecutionFailed, message);
}
