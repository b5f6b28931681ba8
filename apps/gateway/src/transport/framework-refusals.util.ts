import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppErrorCode, AppException } from '@genhub/errors';
import { errorBody, httpStatus } from '../filters/error-bodies.util';
import { responseFamily } from '../filters/response-family.util';

/**
 * The refusals Fastify and Node's HTTP parser send on their own — before any
 * route, hook or filter runs — answered like every other error: the status
 * that fits, the body in the URL's response family (issue 17).
 */

/** The longest path segment (a slug part, a task id) the router reads; Fastify's default. */
export const MAX_PATH_SEGMENT_LENGTH = 100;

/** Fastify's router refusals (`frameworkErrors`): bad percent-encoding, an over-long path segment. */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const refusal =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppException(AppErrorCode.UriTooLong, {
          message: `Request URL too long: a path segment is over ${MAX_PATH_SEGMENT_LENGTH} characters`,
        })
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppException(AppErrorCode.InvalidRequest, {
            message: 'Malformed URL: invalid percent-encoding in the path',
          })
        : new AppException(AppErrorCode.InvalidRequest);
  const family = responseFamily(request.url);
  void reply
    .status(httpStatus(refusal, family))
    .header('x-request-id', request.id)
    .header('content-type', 'application/json; charset=utf-8')
    .send(errorBody(family, refusal));
}

/** Node's client error: `code`, and the bytes its parser had received when it gave up. */
interface ClientError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/**
 * Node's HTTP parser refusals (`clientErrorHandler`): headers over the size
 * limit, a malformed request line or header, an unknown method, a client too
 * slow to send its request. The socket is then closed: the parser cannot go on.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppException(AppErrorCode.HeaderFieldsTooLarge, {
          message: `Request header fields too large: the request line and headers exceed ${maxHeaderSize / 1024} KB`,
        })
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppException(AppErrorCode.RequestTimeout)
        : new AppException(AppErrorCode.InvalidRequest, { message: 'Malformed HTTP request' });
  if (socket.writable) {
    const family = responseFamily(requestTarget(error.rawPacket));
    const body = JSON.stringify(errorBody(family, refusal));
    const status = httpStatus(refusal, family);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  // The rest of the request cannot be parsed; give the answer a moment to leave.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** The request target from the start of a raw request (`GET /path HTTP/1.1`), if present. */
function requestTarget(raw: unknown): string {
  const line = Buffer.isBuffer(raw) ? raw.subarray(0, 8192).toString('latin1') : '';
  return /^[A-Za-z-]+ (\/\S*)/.exec(line)?.[1] ?? '/';
}
