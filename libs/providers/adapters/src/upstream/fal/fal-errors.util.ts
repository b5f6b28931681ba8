import { TaskCode, TaskFailureCode } from '@genhub/errors';
import { AdapterError } from '../../contract/model-adapter.types';
import { MODERATION_PATTERN, UpstreamAnswer, codeForStatus, jsonOf, upstreamError } from '../http';

interface FalErrorItem {
  loc?: unknown[];
  msg?: string;
  type?: string;
}

/** Error types of fal's model errors that point at a media input we passed. */
const MEDIA_TYPES = new Set([
  'file_download_error',
  'image_load_error',
  'video_load_error',
  'audio_load_error',
]);

/** fal's `{detail: [{loc, msg, type}]}` (or `{detail: "…"}`) → a catalogue code. */
export function falError(answer: UpstreamAnswer): AdapterError {
  const body = (jsonOf(answer) ?? {}) as { detail?: unknown };
  const items: FalErrorItem[] = Array.isArray(body.detail) ? (body.detail as FalErrorItem[]) : [];
  const message =
    typeof body.detail === 'string'
      ? body.detail
      : items
          .map((i) => i.msg)
          .filter(Boolean)
          .join('; ');
  return upstreamError(falCode(answer.status, items, message), answer.status, message || undefined);
}

function falCode(status: number, items: FalErrorItem[], message: string): TaskFailureCode {
  const types = items.map((i) => i.type ?? '');
  if (types.includes('content_policy_violation') || MODERATION_PATTERN.test(message))
    return TaskCode.ContentModeration;
  if (types.some((t) => MEDIA_TYPES.has(t))) return TaskCode.MediaAccessFailed;
  if (status === 422)
    return types.includes('missing') ? TaskCode.MissingParameter : TaskCode.InvalidParameter;
  return codeForStatus(status);
}
