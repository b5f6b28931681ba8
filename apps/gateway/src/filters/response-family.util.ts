/** Which error shape a URL answers with (docs/interface.md, "HTTP error bodies"). */
export type ResponseFamily = 'v1' | 'v3' | 'chat' | 'admin' | 'replicate';

export function responseFamily(url: string): ResponseFamily {
  const path = url.split('?')[0];
  if (path === '/v1/models' || path.startsWith('/v1/models/')) return 'chat';
  if (path === '/v1/chat' || path.startsWith('/v1/chat/')) return 'chat';
  if (path === '/api/v3' || path.startsWith('/api/v3/')) return 'v3';
  if (path === '/replicate' || path.startsWith('/replicate/')) return 'replicate';
  if (path === '/admin' || path.startsWith('/admin/')) return 'admin';
  // /v1/ and everything else (unknown routes, /health…) use the standard {code, error}.
  return 'v1';
}
