import { TaskCode, TaskFailureCode } from '@genhub/errors';
import { AdapterError } from '../../contract/model-adapter.types';
import { MODERATION_PATTERN, UpstreamAnswer, codeForStatus, jsonOf, upstreamError } from '../http';

interface OpenAiErrorBody {
  message?: string;
  type?: string;
  param?: string | null;
  code?: string | null;
}

const MODERATION_CODES = new Set([
  'content_policy_violation',
  'moderation_blocked',
  'content_filter',
]);

/** OpenAI's `{error: {message, type, param, code}}` → a catalogue code (decision 0080). */
export function openAiError(answer: UpstreamAnswer): AdapterError {
  const body = (jsonOf(answer) as { error?: OpenAiErrorBody } | undefined)?.error ?? {};
  return upstreamError(openAiCode(answer.status, body), answer.status, body.message);
}

function openAiCode(status: number, e: OpenAiErrorBody): TaskFailureCode {
  if (
    MODERATION_CODES.has(e.code ?? '') ||
    (status === 400 && MODERATION_PATTERN.test(e.message ?? ''))
  )
    return TaskCode.ContentModeration;
  if (status === 400) {
    if (e.code === 'missing_required_parameter') return TaskCode.MissingParameter;
    if (e.param || /invalid|unsupported|unknown/i.test(e.code ?? ''))
      return TaskCode.InvalidParameter;
  }
  return codeForStatus(status);
}
