/**
 * Collapses a URL into a low-cardinality label: the route family, never an id.
 */
export function routeFamily(url: string): string {
  const path = url.split('?')[0];
  if (path === '/health' || path === '/ready' || path === '/metrics') return path;
  if (path.startsWith('/v1/requests/')) return '/v1/requests/:id';
  if (path === '/v1/balance') return '/v1/balance';
  if (path.startsWith('/v1/chat/') || path === '/v1/models') return '/v1/chat';
  if (path.startsWith('/v1/')) return '/v1/:slug';
  if (path.startsWith('/api/v3/')) return `/api/v3/${path.split('/')[3] ?? ''}`;
  if (path.startsWith('/admin/')) return '/admin';
  if (path.startsWith('/cdn/')) return '/cdn';
  return 'other';
}
