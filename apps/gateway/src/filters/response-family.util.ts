/** Which error shape a URL answers with (docs/interface.md, "HTTP error bodies"). */
export type ResponseFamily = 'v1' | 'v3' | 'chat' | 'media' | 'admin' | 'replicate';

/** The OpenAI-compatible media routes, exactly: `/v1/{provider}/…` stays a task route. */
const MEDIA_PATHS = new Set([
  '/v1/images/generations',
  '/v1/audio/speech',
  '/v1/audio/transcriptions',
]);

export function responseFamily(url: string): ResponseFamily {
  const path = url.split('?')[0];
  if (path === '/v1/models' || path.startsWith('/v1/models/')) return 'chat';
  if (path === '/v1/chat' || path.startsWith('/v1/chat/')) return 'chat';
  // The OpenAI-compatible media routes: the chat shape with OpenAI's `code` (decision 0136).
  if (MEDIA_PATHS.has(path)) return 'media';
  if (path === '/api/v3' || path.startsWith('/api/v3/')) return 'v3';
  if (path === '/replicate' || path.startsWith('/replicate/')) return 'replicate';
  if (path === '/admin' || path.startsWith('/admin/')) return 'admin';
  // /v1/ and everything else (unknown routes, /health…) use the standard {code, error}.
  return 'v1';
}
