import { errorCodes, type FastifyInstance } from 'fastify';

/** The route that receives local direct uploads (its body is the file itself). */
export const DIRECT_UPLOAD_ROUTE = { method: 'PUT', url: '/api/v3/media/uploads/:id' } as const;

/**
 * Media bodies (`image/*`, `video/*`, `audio/*`) are accepted by one route
 * only, the direct-upload `PUT`, which reads them as a stream (never
 * buffered); on any other route such a body is refused as before, as an
 * unsupported media type.
 */
export function registerMediaBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(/^(image|video|audio)\//, (request, _payload, done) => {
    const route = request.routeOptions;
    if (route.method === DIRECT_UPLOAD_ROUTE.method && route.url === DIRECT_UPLOAD_ROUTE.url)
      done(null, undefined);
    else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']));
  });
}
