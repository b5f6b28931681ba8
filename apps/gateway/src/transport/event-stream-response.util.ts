import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

/** One server-sent event (the fields of the text/event-stream format). */
export interface ServerSentEvent {
  event?: string;
  id?: string;
  /** Written as one `data:` line: callers pass JSON (never a newline). */
  data: string;
}

/** A text/event-stream response in progress. */
export interface EventStreamResponse {
  send(event: ServerSentEvent): void;
  /** A comment line: ignored by clients, keeps proxies from closing an idle stream. */
  comment(text: string): void;
  /** The client's reconnection delay. */
  retry(ms: number): void;
  /** Whether the client is gone (writes are dropped). */
  readonly gone: boolean;
  end(): void;
}

/**
 * Takes the response over from Fastify (it steps aside) and starts a
 * text/event-stream with the headers set so far (x-request-id, CORS…) and
 * those that keep proxies from buffering it.
 */
export function startEventStream(reply: FastifyReply): EventStreamResponse {
  reply.hijack();
  const raw = reply.raw;
  const set = Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined);
  raw.writeHead(200, {
    ...(Object.fromEntries(set) as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const write = (text: string) => {
    if (!raw.destroyed) raw.write(text);
  };
  return {
    send: ({ event, id, data }) =>
      write(`${event ? `event: ${event}\n` : ''}${id ? `id: ${id}\n` : ''}data: ${data}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    retry: (ms) => write(`retry: ${ms}\n\n`),
    get gone() {
      return raw.destroyed;
    },
    end: () => raw.end(),
  };
}
