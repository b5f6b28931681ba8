import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DOWNLOAD_CONTENT_TYPE,
  OBJECT_CACHE_CONTROL,
  OBJECT_STORAGE,
  ObjectStorage,
  inlineContentType,
  isValidObjectKey,
  parseByteRange,
} from '@genhub/storage';

const NOT_FOUND = { code: 404, message: 'Not found', data: null };

/**
 * `/cdn/{key}`: serves stored objects (the embedded default CDN_URL points
 * here), on the gateway's origin — the console's. Only recognised media types
 * and plain text are served inline; any other stored type (an old object, an
 * upstream's HTML) is an `application/octet-stream` attachment in a CSP
 * sandbox, always with nosniff (decision 0128). Cached five minutes: a deleted
 * output or an expired upload must stop being served (404 here at once).
 * Single byte ranges are honoured (206/416).
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
    const inline = inlineContentType(object.contentType);
    reply
      .header('content-type', inline ?? DOWNLOAD_CONTENT_TYPE)
      .header('cache-control', OBJECT_CACHE_CONTROL)
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      // A file opened on its own (a text output in the console's frame) runs nothing.
      .header('content-security-policy', inline ? 'sandbox' : "default-src 'none'; sandbox");
    if (!inline) reply.header('content-disposition', 'attachment');
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
