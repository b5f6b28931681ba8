import type { FastifyInstance } from 'fastify';
import { METRICS } from './metric-catalogue.constants';
import { MetricsService } from './metrics.service';

/**
 * SDKs that name themselves in `X-Client-Name` (the WaveSpeed SDKs do): the
 * label set stays bounded, anything else is `other`, no header is `none`.
 */
export const KNOWN_API_CLIENTS = ['wavespeed-js', 'wavespeed-python', 'wavespeed-go'] as const;

export function apiClientLabel(header: string | string[] | undefined): string {
  if (header === undefined) return 'none';
  const name = (Array.isArray(header) ? header[0] : header).trim().toLowerCase();
  return (KNOWN_API_CLIENTS as readonly string[]).includes(name) ? name : 'other';
}

/** Counts the gateway's requests by client SDK, in Fastify's onResponse hook. */
export function installApiClientMetrics(fastify: FastifyInstance, metrics: MetricsService): void {
  const counter = metrics.counter(METRICS.apiClients);
  const children = new Map(
    [...KNOWN_API_CLIENTS, 'other', 'none'].map((label) => [label, counter.labels(label)]),
  );
  fastify.addHook('onResponse', (request, _reply, done) => {
    children.get(apiClientLabel(request.headers['x-client-name']))?.inc();
    done();
  });
}
