import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StorageConfig } from '@genhub/config';

/** A year, as browsers remember an HTTPS-only host. */
const HSTS = 'max-age=31536000';

/** What every page of ours answers with besides its Content-Security-Policy. */
const PAGE_HEADERS = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** The directives every page shares: nothing but its own, never framed, no plugins, no <base>. */
const PAGE_BASE = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
];

/**
 * Origins the console's pages load from besides their own: the file origin
 * (CDN_URL: outputs and uploads shown as images, audio, video, framed text)
 * and, with S3, the bucket a direct upload is PUT to (path-style and
 * virtual-hosted addresses both, whichever the SDK signs).
 */
export function consoleOrigins(storage: StorageConfig): { files: string[]; uploads: string[] } {
  const files = [new URL(storage.cdnUrl).origin];
  const uploads: string[] = [];
  if (storage.S3_ENDPOINT) {
    const endpoint = new URL(storage.S3_ENDPOINT);
    uploads.push(endpoint.origin);
    if (!storage.S3_FORCE_PATH_STYLE && storage.S3_BUCKET)
      uploads.push(`${endpoint.protocol}//${storage.S3_BUCKET}.${endpoint.host}`);
  }
  return { files, uploads };
}

/**
 * The console (a Vite build: one module script and one stylesheet, no inline
 * code): scripts and styles only from its own files; API calls, event streams
 * and uploads to its origin (or the bucket); outputs shown from the file origin.
 */
export function consolePolicy(storage: StorageConfig): string {
  const { files, uploads } = consoleOrigins(storage);
  const shown = ["'self'", ...files].join(' ');
  return [
    ...PAGE_BASE,
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${shown}`,
    `media-src ${shown}`,
    `frame-src ${shown}`,
    ["connect-src 'self'", ...uploads].join(' '),
    "font-src 'self'",
    "manifest-src 'self'",
  ].join('; ');
}

/**
 * `/docs` (Swagger UI from swagger-ui-dist, served by us): its bundle and
 * init script, its stylesheet (React sets element styles through the DOM,
 * which a policy allows: no 'unsafe-inline'), the `data:` SVG icons its
 * stylesheet holds, and the OpenAPI document and "try it out" calls to this
 * origin. Checked in Chromium: the page renders with no violation.
 */
export const DOCS_POLICY = [
  ...PAGE_BASE,
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
].join('; ');

type Surface = 'console' | 'docs' | 'board' | 'api';

function surfaceOf(url: string): Surface {
  if (url.startsWith('/console')) return 'console';
  if (url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?')) return 'docs';
  if (url.startsWith('/admin/queues')) return 'board';
  return 'api';
}

/**
 * The gateway's security headers, set when a request arrives (decision 0128):
 * every answer `X-Content-Type-Options: nosniff`, and
 * `Strict-Transport-Security` when the request came over HTTPS (as
 * TRUST_PROXY lets a proxy say); the console and `/docs` a strict
 * Content-Security-Policy with `frame-ancestors 'none'`, `X-Frame-Options`,
 * `Referrer-Policy` and `Cross-Origin-Opener-Policy`; the queue board (its
 * own page, bull-board's scripts) the same without a script policy. The
 * API's answers get nothing more: a prefix check and a header or two.
 */
export class SecurityHeaders {
  private readonly console: Record<string, string>;
  private readonly docs: Record<string, string>;
  private readonly board: Record<string, string>;

  constructor(storage: StorageConfig) {
    this.console = { ...PAGE_HEADERS, 'content-security-policy': consolePolicy(storage) };
    this.docs = { ...PAGE_HEADERS, 'content-security-policy': DOCS_POLICY };
    this.board = { ...PAGE_HEADERS, 'content-security-policy': "frame-ancestors 'none'" };
  }

  apply(request: FastifyRequest, reply: FastifyReply): void {
    void reply.header('x-content-type-options', 'nosniff');
    if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS);
    const surface = surfaceOf(request.url);
    if (surface !== 'api') void reply.headers(this[surface]);
  }
}
