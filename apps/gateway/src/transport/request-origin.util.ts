import type { FastifyRequest } from 'fastify';

/** The origin the client called (scheme and host as it sent them): links in answers point back to it. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The v3 result route of a task, on the host the client called. */
export function predictionResultUrl(request: FastifyRequest, taskId: string): string {
  return `${requestOrigin(request)}/api/v3/predictions/${taskId}/result`;
}
