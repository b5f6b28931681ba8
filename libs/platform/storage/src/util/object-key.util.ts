/**
 * Object keys are slash-separated segments of letters, digits, `_`, `-` and
 * `.`, never starting with a dot: no `..`, no hidden files, no absolute
 * paths, so a key can never escape the local driver's root and the local
 * driver's own `.meta`/`.tmp` folders can never be addressed.
 */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 1024;

export class InvalidObjectKeyError extends Error {
  constructor(readonly key: string) {
    super(`invalid object key: ${JSON.stringify(key.slice(0, 200))}`);
    this.name = 'InvalidObjectKeyError';
  }
}

export function isValidObjectKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment));
}

export function assertObjectKey(key: string): string {
  if (!isValidObjectKey(key)) throw new InvalidObjectKeyError(key);
  return key;
}

/** A prefix is a key, a key followed by `/`, or empty (everything). */
export function assertObjectPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const body = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (!isValidObjectKey(body)) throw new InvalidObjectKeyError(prefix);
  return prefix;
}

/** `${cdnUrl}/${key}` with each segment URL-safe (keys are already safe; this is belt and braces). */
export function urlForKey(cdnUrl: string, key: string): string {
  assertObjectKey(key);
  return `${cdnUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** The key of one of our own URLs (same origin and path prefix as CDN_URL), else undefined. */
export function keyFromCdnUrl(cdnUrl: string, raw: string): string | undefined {
  let url: URL;
  let base: URL;
  try {
    url = new URL(raw);
    base = new URL(`${cdnUrl}/`);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return undefined;
  let key: string;
  try {
    key = url.pathname
      .slice(base.pathname.length)
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
  } catch {
    return undefined;
  }
  return isValidObjectKey(key) ? key : undefined;
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
};

/** A content type from the key's extension, for objects stored without metadata. */
export function contentTypeFromKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}
