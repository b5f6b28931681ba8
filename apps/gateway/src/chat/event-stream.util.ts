import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppErrorCode, AppException } from '@genhub/errors';
import { errorBody } from '../filters/error-bodies.util';
import { startEventStream } from '../transport/event-stream-response.util';

const logger = new Logger('ChatEventStream');

/** An AbortSignal that fires when the client goes away before the answer is complete. */
export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Sends `events` as server-sent events on the raw response (Fastify steps
 * aside): one `data: <json>` per event, then `data: [DONE]`. A failure after
 * the headers went out can no longer change the status: it becomes a last
 * `data: {"error": …}` event in the chat error shape, as common chat APIs do.
 */
export async function writeEventStream(
  reply: FastifyReply,
  events: AsyncIterable<unknown>,
): Promise<void> {
  const stream = startEventStream(reply);
  const send = (data: string) => stream.send({ data });
  try {
    for await (const event of events) send(JSON.stringify(event));
    send('[DONE]');
  } catch (exception) {
    if (stream.gone) return; // the client left: nobody to tell
    let error = exception instanceof AppException ? exception : undefined;
    if (!error) {
      logger.error({ err: exception, request_id: reply.request.id }, 'chat stream failed');
      error = new AppException(AppErrorCode.Internal);
    }
    send(JSON.stringify(errorBody('chat', error)));
  } finally {
    stream.end();
  }
}
