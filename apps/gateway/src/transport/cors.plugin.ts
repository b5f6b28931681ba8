import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { CorsConfig } from '@genhub/config';

/** What a browser may send and read (decision 0112). */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Last-Event-ID',
  'X-Client-Name',
  'X-Client-Version',
  'X-Client-OS',
];
const EXPOSED_HEADERS = ['Retry-After', 'x-request-id'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
/** The admin API also changes an account in place (`PATCH /admin/v1/accounts/{id}`). */
const ADMIN_METHODS = [...METHODS, 'PATCH'];

const isAdminPath = (url: string) => url === '/admin' || url.startsWith('/admin/');

/** The CORS answer for an origin list: none (no headers, preflight refused), any, or those. */
function policy(origins: readonly string[], methods: readonly string[]): FastifyCorsOptions {
  if (origins.length === 0) return { origin: false };
  return {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: [...methods],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    // The API key is a header, never a cookie: credentials are never allowed.
    credentials: false,
    maxAge: 600,
  };
}

/**
 * CORS for browsers: the public API for `CORS_ALLOWED_ORIGINS`, the admin API
 * only for `CORS_ADMIN_ALLOWED_ORIGINS`; an origin not listed gets no CORS
 * headers, so its browser refuses the answer (and the preflight finds no route).
 */
export async function registerCors(app: NestFastifyApplication): Promise<void> {
  const config = app.get(CorsConfig);
  const publicPolicy = policy(config.CORS_ALLOWED_ORIGINS, METHODS);
  const adminPolicy = policy(config.CORS_ADMIN_ALLOWED_ORIGINS, ADMIN_METHODS);
  if (publicPolicy.origin === false && adminPolicy.origin === false) return;
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback) =>
      callback(null, isAdminPath(request.url.split('?')[0]) ? adminPolicy : publicPolicy),
  });
}
