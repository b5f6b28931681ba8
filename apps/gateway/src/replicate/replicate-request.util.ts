import { AppException, REPLICATE_INVALID_PREFER_MESSAGE } from '@genhub/errors';
import { REPLICATE_WEBHOOK_EVENTS, type ReplicateWebhookEvent } from '@genhub/tasks-data-access';

/** What a Replicate create body carries beside the model input. */
export interface ReplicateCreateBody {
  input: Record<string, unknown>;
  version?: string;
  webhook?: string;
  /** Replicate's default when the filter is absent: every event. */
  events: ReplicateWebhookEvent[];
}

const invalid = (field: string, message: string) =>
  new AppException('invalid_request', { message, fields: [field] });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The create body as Replicate's API takes it: `input` (an object), `version`
 * (on `POST /predictions`), `webhook` and `webhook_events_filter`. Other keys
 * (`stream`, anything newer) are ignored, as Replicate ignores unknown ones.
 */
export function parseCreateBody(body: unknown, withVersion: boolean): ReplicateCreateBody {
  if (!isObject(body)) throw invalid('input', 'The body must be a JSON object with input');
  const { input, version, webhook, webhook_events_filter: filter } = body;
  if (!isObject(input)) throw invalid('input', 'input is required and must be an object');
  if (withVersion && (typeof version !== 'string' || version === ''))
    throw invalid('version', 'version is required and must be a string');
  if (webhook !== undefined && webhook !== null && typeof webhook !== 'string')
    throw invalid('webhook', 'webhook must be a URL string');
  let events: ReplicateWebhookEvent[] = [...REPLICATE_WEBHOOK_EVENTS];
  if (filter !== undefined && filter !== null) {
    const known: readonly unknown[] = REPLICATE_WEBHOOK_EVENTS;
    if (!Array.isArray(filter) || filter.some((event) => !known.includes(event)))
      throw invalid(
        'webhook_events_filter',
        `webhook_events_filter must be a list of ${REPLICATE_WEBHOOK_EVENTS.join(', ')}`,
      );
    events = [...new Set(filter as ReplicateWebhookEvent[])];
  }
  return {
    input,
    ...(withVersion ? { version: version as string } : {}),
    ...(typeof webhook === 'string' && webhook !== '' ? { webhook } : {}),
    events,
  };
}

/** Replicate's longest synchronous wait, and the wait of a bare `Prefer: wait`. */
export const MAX_WAIT_SECONDS = 60;

/**
 * The wait a `Prefer` header asks for, in milliseconds: `wait` (60 s) or
 * `wait=n` (1 to 60 s); undefined without one.
 */
export function parsePrefer(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^\s*wait(?:\s*=\s*(\d{1,4}))?\s*$/i.exec(header);
  if (!match) throw invalid('Prefer', REPLICATE_INVALID_PREFER_MESSAGE);
  const seconds = match[1] === undefined ? MAX_WAIT_SECONDS : Number(match[1]);
  if (seconds < 1 || seconds > MAX_WAIT_SECONDS)
    throw invalid('Prefer', REPLICATE_INVALID_PREFER_MESSAGE);
  return seconds * 1000;
}

/**
 * A list cursor: the genhub keyset cursors of the pages up to this one, so
 * `previous` is the same trail one shorter (the engine's keyset pages only go
 * forward). At most MAX_TRAIL are kept, so a link stays short however deep the
 * pages go; `cut` says earlier ones were dropped (then `previous` ends there).
 */
export interface ListTrail {
  pages: string[];
  cut: boolean;
}

/** How many pages back `previous` can lead from the furthest page reached. */
export const MAX_TRAIL = 20;

export function encodeListCursor(trail: ListTrail): string {
  return Buffer.from(JSON.stringify({ p: trail.pages, c: trail.cut })).toString('base64url');
}

export function decodeListCursor(cursor: string): ListTrail {
  try {
    const { p, c } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      p?: unknown;
      c?: unknown;
    };
    if (
      Array.isArray(p) &&
      p.length > 0 &&
      p.length <= MAX_TRAIL &&
      p.every((part) => typeof part === 'string' && part !== '') &&
      typeof c === 'boolean'
    )
      return { pages: p as string[], cut: c };
  } catch {
    // Falls through to the refusal.
  }
  throw invalid('cursor', 'Invalid cursor: follow the next and previous links as given');
}

/** The trail of the next page: this one's with `next` added, the oldest dropped past MAX_TRAIL. */
export function nextTrail(trail: ListTrail | undefined, next: string): ListTrail {
  const pages = [...(trail?.pages ?? []), next];
  if (pages.length <= MAX_TRAIL) return { pages, cut: trail?.cut ?? false };
  return { pages: pages.slice(pages.length - MAX_TRAIL), cut: true };
}

/**
 * The trail of the previous page: `first` when that is the first page; null
 * on the first page, and where the trail was cut (earlier pages dropped).
 */
export function previousTrail(trail: ListTrail | undefined): ListTrail | 'first' | null {
  if (!trail) return null;
  if (trail.pages.length > 1) return { pages: trail.pages.slice(0, -1), cut: trail.cut };
  return trail.cut ? null : 'first';
}
