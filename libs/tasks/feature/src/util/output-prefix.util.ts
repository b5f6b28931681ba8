import { AppException } from '@genhub/errors';

export const MAX_PREFIX_LENGTH = 256;
export const MAX_PREFIX_SEGMENTS = 8;
export const MAX_SEGMENT_LENGTH = 64;
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * The `prefix` query parameter: folder segments joined by `/`. Anything that
 * could escape the task's folder or make a strange key is refused (400):
 * `..`, `.`, empty segments (leading, trailing or doubled `/`), backslashes,
 * control characters, characters outside `A-Z a-z 0-9 . _ -`, and overly long
 * prefixes. Returns the prefix, or null when none was given.
 */
export function parseOutputPrefix(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const fail = (why: string): never => {
    throw new AppException('invalid_request', {
      message: `Invalid prefix: ${why}`,
      fields: ['prefix'],
    });
  };
  if (typeof raw !== 'string') fail('must be a string');
  if (raw.length === 0) fail('must not be empty');
  if (raw.length > MAX_PREFIX_LENGTH) fail(`must be at most ${MAX_PREFIX_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) fail('must not contain control characters');
  if (raw.includes('\\')) fail('must not contain backslashes');
  if (raw.startsWith('/')) fail('must be relative (no leading /)');
  const segments = raw.split('/');
  if (segments.length > MAX_PREFIX_SEGMENTS)
    fail(`must have at most ${MAX_PREFIX_SEGMENTS} segments`);
  for (const segment of segments) {
    if (segment === '') fail('must not contain empty segments');
    if (segment === '.' || segment === '..') fail(`must not contain '${segment}' segments`);
    if (segment.length > MAX_SEGMENT_LENGTH)
      fail(`segments must be at most ${MAX_SEGMENT_LENGTH} characters`);
    if (!SEGMENT.test(segment)) fail('segments may only contain letters, digits, ".", "_" and "-"');
  }
  return raw;
}

/** `outputs/{prefix}/{task}/{n}.{ext}`; a re-run (attempt > 1) names its files apart. */
export function outputKey(
  prefix: string | null,
  taskId: string,
  index: number,
  attempt: number,
  extension: string,
): string {
  const folder = prefix ? `outputs/${prefix}/${taskId}` : `outputs/${taskId}`;
  const name = attempt > 1 ? `${index}-r${attempt}` : `${index}`;
  return `${folder}/${name}.${extension.replace(/[^A-Za-z0-9]/g, '') || 'bin'}`;
}
