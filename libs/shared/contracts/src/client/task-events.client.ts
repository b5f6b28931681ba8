import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ListTasksQuery, TaskEvent, TaskListItem, TaskListPage } from '../types';
import { TASK_STATUSES, TERMINAL_TASK_STATUSES } from '../task-status.constants';
import { type GenhubClient, GenhubRequestError } from './genhub.client';
import { sleep } from './sleep.util';

export interface RequestOptions {
  signal?: AbortSignal;
}

/** One page of the caller's tasks, newest first (`GET /api/v3/predictions`). */
export async function listTasks(
  client: GenhubClient,
  query: ListTasksQuery = {},
  options: RequestOptions = {},
): Promise<TaskListPage> {
  const { data, error, response } = await client.GET('/api/v3/predictions', {
    params: { query },
    signal: options.signal,
  });
  if (error !== undefined || !data) throw new GenhubRequestError(response.status, error);
  return data.data;
}

/** Every task that matches `query`, newest first, a page at a time as the caller reads on. */
export async function* allTasks(
  client: GenhubClient,
  query: ListTasksQuery = {},
  options: RequestOptions = {},
): AsyncGenerator<TaskListItem> {
  let cursor = query.cursor;
  do {
    const page = await listTasks(client, { ...query, cursor }, options);
    yield* page.items;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

export interface TaskEventsOptions extends RequestOptions {
  /** Resume after this event (the `id` of the last status event a previous stream gave). */
  lastEventId?: string;
  /** Dropped connections in a row to reconnect after before giving up (default 5). */
  maxReconnects?: number;
}

/** A status event per task state, and `deleted`. */
const STATUS_EVENTS = new Set<string>([...TASK_STATUSES, 'deleted']);
const TERMINAL_EVENTS = new Set<string>([...TERMINAL_TASK_STATUSES, 'deleted']);

function toTaskEvent(message: EventSourceMessage): TaskEvent | undefined {
  const event = message.event ?? 'message';
  if (event !== 'queue' && !STATUS_EVENTS.has(event)) return undefined; // a newer server's event
  const data: unknown = JSON.parse(message.data);
  return (event === 'queue' ? { event, data } : { event, id: message.id, data }) as TaskEvent;
}

/**
 * A task's live events (`GET /api/v3/predictions/{task_id}/events`) as an
 * async iterator, in browsers and in Node alike (fetch with the client's
 * Authorization header, no EventSource needed). A dropped connection is
 * resumed where it stopped (`Last-Event-ID`); the iteration ends after the
 * terminal event (`completed`, `failed` or `deleted`). Leaving the loop early
 * closes the connection.
 *
 * ```ts
 * for await (const event of taskEvents(client, id)) {
 *   if (event.event === 'queue') console.log('ahead of it:', event.data.queue_position);
 *   else console.log(event.event, event.data);
 * }
 * ```
 */
export async function* taskEvents(
  client: GenhubClient,
  taskId: string,
  options: TaskEventsOptions = {},
): AsyncGenerator<TaskEvent> {
  const { signal, maxReconnects = 5 } = options;
  let lastEventId = options.lastEventId;
  let retryMs = 2000;
  for (let drops = 0; ;) {
    const answer = await client
      .GET('/api/v3/predictions/{task_id}/events', {
        params: {
          path: { task_id: taskId },
          header: lastEventId ? { 'Last-Event-ID': lastEventId } : undefined,
        },
        parseAs: 'stream',
        signal,
      })
      .catch((error: unknown) => {
        if (signal?.aborted || drops >= maxReconnects) throw error;
        return undefined; // the network failed: try again below
      });
    if (answer) {
      const { data: body, error, response } = answer;
      if (response.status === 204) return; // the end was already seen
      if (error !== undefined || !body) throw new GenhubRequestError(response.status, error);
      const pending: EventSourceMessage[] = [];
      const parser = createParser({
        onEvent: (message) => pending.push(message),
        onRetry: (ms) => (retryMs = ms),
      });
      const reader = body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
          for (let message = pending.shift(); message; message = pending.shift()) {
            const event = toTaskEvent(message);
            if (!event) continue;
            drops = 0;
            if ('id' in event && event.id) lastEventId = event.id;
            yield event;
            if (TERMINAL_EVENTS.has(event.event)) return;
          }
        }
      } catch (error) {
        if (signal?.aborted || drops >= maxReconnects) throw error;
      } finally {
        reader.cancel().catch(() => undefined);
      }
    }
    if (++drops > maxReconnects) throw new Error(`task ${taskId}: event stream lost`);
    await sleep(retryMs, signal);
  }
}
