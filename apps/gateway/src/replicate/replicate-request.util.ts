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
 * A list cursor: the genhub keyset cursors of every page from the first to
 * this one, so `previous` is the same path one step shorter (the engine's
 * keyset pages only go forward).
 */
export function encodeListCursor(trail: string[]): string {
  return Buffer.from(JSON.stringify(trail)).toString('base64url');
}

export function decodeListCursor(cursor: string): string[] {
  try {
    const trail: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(trail) &&
      trail.length > 0 &&
      trail.every((part) => typeof part === 'string' && part !== '')
    )
      return trail as string[];
  } catch {
    // Falls through to the refusal.
  }
  throw invalid('cursor', 'Invalid cursor: follow the next and previous links as given');
}
