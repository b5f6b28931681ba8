import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OBJECT_STORAGE, ObjectStorage, isValidObjectKey, parseByteRange } from '@genhub/storage';

const CACHE_CONTROL = 'public, max-age=31536000, immutable';
const NOT_FOUND = { code: 404, message: 'Not found', data: null };

/**
 * `/cdn/{key}`: serves stored objects (the embedded default CDN_URL points
 * here). Objects are immutable (every key holds a fresh uuid), so they are
 * cached for a year; single byte ranges are honoured (206/416).
 */
// Not public interface: kept out of the OpenAPI document.
@ApiExcludeController()
@Controller('cdn')
export class CdnController {
  constructor(@Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage) {}

  /** GET (Fastify derives HEAD from it: the same headers, no body read). */
  @Get('*')
  get(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve(req, reply, req.method !== 'HEAD');
  }

  private async serve(req: FastifyRequest, reply: FastifyReply, withBody: boolean): Promise<void> {
    const key = keyOf(req.url);
    const object = key ? await this.storage.stat(key) : undefined;
    if (!key || !object) {
      reply.code(404).header('cache-control', 'no-store').send(NOT_FOUND);
      return;
    }
    const etag = `"${object.size.toString(16)}-${(object.lastModified?.getTime() ?? 0).toString(16)}"`;
    reply
      .header('content-type', object.contentType)
      .header('cache-control', CACHE_CONTROL)
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff');
    if (object.lastModified) reply.header('last-modified', object.lastModified.toUTCString());

    if (req.headers['if-none-match'] === etag) {
      reply.code(304).send();
      return;
    }

    const rangeHeader =
      req.headers['if-range'] && req.headers['if-range'] !== etag ? undefined : req.headers.range;
    const range = parseByteRange(rangeHeader, object.size);
    if (range === 'unsatisfiable') {
      reply
        .code(416)
        .header('content-range', `bytes */${object.size}`)
        .header('content-type', 'application/json')
        .send({ code: 416, message: 'Range not satisfiable', data: null });
      return;
    }
    const length = range ? range.end - range.start + 1 : object.size;
    if (range) {
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${object.size}`);
    }
    reply.header('content-length', String(length));
    if (!withBody || length === 0) {
      // An empty stream keeps the Content-Length Fastify would reset for an empty HEAD answer.
      reply.send(Readable.from([]));
      return;
    }
    const stored = await this.storage.get(key, range);
    if (!stored) {
      reply.code(404).header('cache-control', 'no-store').send(NOT_FOUND);
      return;
    }
    reply.send(stored.body);
  }
}

/** The object key of a `/cdn/...` request path, or undefined when it is not a valid key. */
function keyOf(url: string): string | undefined {
  const path = url.split('?')[0].replace(/^\/cdn\//, '');
  let key: string;
  try {
    key = path.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
  return isValidObjectKey(key) ? key : undefined;
}
