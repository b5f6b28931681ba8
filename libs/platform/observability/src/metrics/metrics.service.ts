import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per process. Domain modules create their series
 * through `counter`/`histogram`/`gauge`, which return the existing series when
 * asked twice for the same name.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpRequests: Histogram<'method' | 'route' | 'status'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = this.histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route family and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    });
  }

  setServiceLabel(service: string): void {
    this.registry.setDefaultLabels({ service });
  }

  counter<L extends string>(cfg: {
    name: string;
    help: string;
    labelNames?: readonly L[];
  }): Counter<L> {
    return (
      (this.registry.getSingleMetric(cfg.name) as Counter<L>) ??
      new Counter({ ...cfg, registers: [this.registry] })
    );
  }

  histogram<L extends string>(cfg: {
    name: string;
    help: string;
    labelNames?: readonly L[];
    buckets?: number[];
  }): Histogram<L> {
    return (
      (this.registry.getSingleMetric(cfg.name) as Histogram<L>) ??
      new Histogram({ ...cfg, registers: [this.registry] })
    );
  }

  gauge<L extends string>(cfg: {
    name: string;
    help: string;
    labelNames?: readonly L[];
    collect?: (this: Gauge<L>) => void | Promise<void>;
  }): Gauge<L> {
    return (
      (this.registry.getSingleMetric(cfg.name) as Gauge<L>) ??
      new Gauge({ ...cfg, registers: [this.registry] })
    );
  }
}
