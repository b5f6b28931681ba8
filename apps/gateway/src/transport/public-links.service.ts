import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { StorageConfig } from '@genhub/config';

/**
 * Where the links in answers point (a v3 task's `urls.get`, an event-stream
 * URL, a direct-upload URL): PUBLIC_BASE_URL when it is set, as file URLs
 * are; else the origin the client called (scheme and host as it sent them).
 */
@Injectable()
export class PublicLinks {
  private readonly base?: string;

  constructor(storage: StorageConfig) {
    this.base = storage.PUBLIC_BASE_URL?.replace(/\/+$/, '');
  }

  origin(request: FastifyRequest): string {
    return this.base ?? `${request.protocol}://${request.host}`;
  }

  /** The v3 result route of a task. */
  predictionResultUrl(request: FastifyRequest, taskId: string): string {
    return `${this.origin(request)}/api/v3/predictions/${taskId}/result`;
  }
}
