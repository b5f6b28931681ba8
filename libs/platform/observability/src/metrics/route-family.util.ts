/**
 * The route families of the HTTP metrics: a fixed, small label set. Resolved
 * from the matched route's pattern (never the raw URL), first match wins.
 */
const FAMILIES: ReadonlyArray<[family: string, matches: (pattern: string) => boolean]> = [
  ['probe', (p) => p === '/health' || p === '/ready' || p === '/metrics'],
  ['admin', (p) => p.startsWith('/admin')],
  ['cdn', (p) => p.startsWith('/cdn')],
  ['chat', (p) => p.startsWith('/v1/chat') || p === '/v1/models' || p.startsWith('/v1/models/')],
  [
    'result',
    (p) => p === '/v1/requests/:request_id' || p === '/api/v3/predictions/:task_id/result',
  ],
  ['balance', (p) => p === '/v1/balance'],
  ['billings', (p) => p.startsWith('/api/v3/billings') || p === '/api/v3/usage'],
  ['upload', (p) => p.startsWith('/api/v3/files') || p.startsWith('/api/v3/media')],
  ['webhooks', (p) => p.endsWith('/webhook-deliveries')],
  ['delete', (p) => p === '/api/v3/predictions/:task_id'],
  ['history', (p) => p === '/api/v3/predictions'],
  // Long-lived: their duration is how long a client followed a task, not latency.
  ['events', (p) => p.startsWith('/api/v3/predictions/:task_id/events')],
  ['models', (p) => p === '/api/v3/models'],
  [
    'submit',
    (p) =>
      p === '/v1/:provider_id/:model_id/:run_type' ||
      p === '/api/v3/:provider_id/:model_id/:run_type',
  ],
  ['docs', (p) => p.startsWith('/docs') || p === '/openapi.json'],
  ['console', (p) => p === '/console' || p.startsWith('/console/')],
];

export const ROUTE_FAMILIES = [...FAMILIES.map(([family]) => family), 'other'] as const;

/** The family of a route pattern (`/v1/requests/:request_id` → `result`); unmatched requests are `other`. */
export function routeFamily(pattern: string | undefined): string {
  if (!pattern) return 'other';
  return FAMILIES.find(([, matches]) => matches(pattern))?.[0] ?? 'other';
}
