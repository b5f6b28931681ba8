import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How much of a refused request's unread body the gateway still reads, and
 * for how long, before it drops the connection (decision 0102).
 */
export const REFUSAL_DRAIN = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000 };

/**
 * Answers sent before the request body was read to its end (an early 413, a
 * refused upload type, an auth failure on an upload…) close the connection
 * cleanly: `Connection: close`, the response flushed, the write side shut,
 * and the rest of the body read and discarded — within REFUSAL_DRAIN — so the
 * client, still writing, is not reset before it has read the answer. Without
 * this, Node either never reads the rest (the next request on the connection
 * hangs) or closes with unread data, which resets the connection under the
 * client's feet (EPIPE instead of the 413).
 */
export function installUnreadBodyPolicy(
  fastify: FastifyInstance,
  limits: typeof REFUSAL_DRAIN = REFUSAL_DRAIN,
): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const socket = request.raw.socket as Socket | null;
    if (!request.raw.complete && socket && !socket.destroyed) {
      void reply.header('connection', 'close');
      lingerOnClose(request.raw, socket, limits);
    }
    done(null, payload);
  });
}

/**
 * Node ends a `Connection: close` response with `socket.destroySoon()`, which
 * destroys the socket as soon as the response is written. Here it only shuts
 * the write side; the socket is destroyed once the rest of the body has
 * arrived, or when the drain exceeds its bytes or time.
 */
function lingerOnClose(body: IncomingMessage, socket: Socket, limits: typeof REFUSAL_DRAIN): void {
  let drained = 0;
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limits.maxBytes) socket.destroy();
  };
  // Listening now keeps Node from "dumping" the body at the end of the
  // response (a dumped body's bytes are dropped unseen, so uncountable).
  body.on('data', count);
  const timer = setTimeout(() => socket.destroy(), limits.maxMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));

  // As Node's own destroySoon: destroyed once the response is fully written.
  const closeWhenWritten = () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  socket.destroySoon = () => {
    socket.end();
    // Once the whole body has arrived, the client is no longer writing.
    if (body.complete) return closeWhenWritten();
    body.once('end', closeWhenWritten);
    // Whoever read the body before the refusal (a multipart parser) has
    // stopped; from here its bytes are only counted and dropped.
    body.unpipe();
    for (const listener of body.listeners('data'))
      if (listener !== count) body.off('data', listener as (chunk: Buffer) => void);
    body.resume();
  };
}
