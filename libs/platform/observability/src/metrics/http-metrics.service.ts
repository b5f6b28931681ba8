import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counter, Histogram } from 'prom-client';
import { METRICS } from './metric-catalogue.constants';
import { MetricsService } from './metrics.service';
import { routeFamily } from './route-family.util';

type RequestsChild = ReturnType<Counter<'route' | 'method' | 'status'>['labels']>;
type DurationChild = ReturnType<Histogram<'route'>['labels']>;
type ErrorsChild = ReturnType<Counter<'route' | 'class'>['labels']>;

/** The series of one route pattern, resolved once (the hot path only looks them up). */
class RouteSeries {
  private readonly byMethodStatus = new Map<string, Map<number, RequestsChild>>();
  readonly duration: DurationChild;
  readonly clientErrors: ErrorsChild;
  readonly serverErrors: ErrorsChild;

  constructor(
    private readonly family: string,
    private readonly requests: Counter<'route' | 'method' | 'status'>,
    duration: Histogram<'route'>,
    errors: Counter<'route' | 'class'>,
  ) {
    this.duration = duration.labels(family);
    this.clientErrors = errors.labels(family, 'client');
    this.serverErrors = errors.labels(family, 'server');
  }

  requestsFor(method: string, status: number): RequestsChild {
    let byStatus = this.byMethodStatus.get(method);
    if (!byStatus) this.byMethodStatus.set(method, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child)
      byStatus.set(status, (child = this.requests.labels(this.family, method, String(status))));
    return child;
  }
}

/**
 * Request count, latency and errors per route family, recorded in Fastify's
 * onResponse hook. Per request: two map look-ups and the increments.
 */
export class HttpMetrics {
  private readonly requests;
  private readonly duration;
  private readonly errors;
  private readonly routes = new Map<string, RouteSeries>();

  constructor(metrics: MetricsService) {
    this.requests = metrics.counter(METRICS.httpRequests);
    this.duration = metrics.histogram(METRICS.httpDuration);
    this.errors = metrics.counter(METRICS.httpErrors);
  }

  install(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      this.record(request, reply);
      done();
    });
  }

  record(request: FastifyRequest, reply: FastifyReply): void {
    // The pattern of the matched route (`/v1/requests/:request_id`); empty for a 404 without a route.
    const pattern = request.routeOptions.url ?? '';
    let series = this.routes.get(pattern);
    if (!series) {
      series = new RouteSeries(routeFamily(pattern), this.requests, this.duration, this.errors);
      this.routes.set(pattern, series);
    }
    const status = reply.statusCode;
    series.requestsFor(request.method, status).inc();
    series.duration.observe(reply.elapsedTime / 1000);
    if (status >= 500) series.serverErrors.inc();
    else if (status >= 400) series.clientErrors.inc();
  }
}
