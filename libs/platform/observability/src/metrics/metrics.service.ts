import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sampleEventLoopLag } from './event-loop-lag.util';
import type { MetricSpec } from './metric-catalogue.constants';

/** The label names of a catalogue entry, as a union type. */
type LabelsOf<S extends MetricSpec> = S['labelNames'][number];

/**
 * One Prometheus registry per process. Series are created from catalogue
 * entries (METRICS); asking twice for one entry returns the same series.
 */
@Injectable()
export class MetricsService implements OnApplicationShutdown {
  readonly registry = new Registry();
  private readonly stopLagSampler: () => void;

  constructor() {
    // prom-client's lag monitor is replaced by sampleEventLoopLag; at 1 s it wakes the loop once a second.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 1000 });
    this.stopLagSampler = sampleEventLoopLag(this.registry);
  }

  onApplicationShutdown(): void {
    this.stopLagSampler();
  }

  setServiceLabel(service: string): void {
    this.registry.setDefaultLabels({ service });
  }

  counter<S extends MetricSpec>(spec: S): Counter<LabelsOf<S>> {
    return (
      (this.registry.getSingleMetric(spec.name) as Counter<LabelsOf<S>>) ??
      new Counter({ ...this.options(spec), registers: [this.registry] })
    );
  }

  histogram<S extends MetricSpec>(spec: S): Histogram<LabelsOf<S>> {
    return (
      (this.registry.getSingleMetric(spec.name) as Histogram<LabelsOf<S>>) ??
      new Histogram({ ...this.options(spec), buckets: spec.buckets, registers: [this.registry] })
    );
  }

  /** `collect` runs on every scrape: keep it cheap or cache inside it. */
  gauge<S extends MetricSpec>(
    spec: S,
    collect?: (this: Gauge<LabelsOf<S>>) => void | Promise<void>,
  ): Gauge<LabelsOf<S>> {
    return (
      (this.registry.getSingleMetric(spec.name) as Gauge<LabelsOf<S>>) ??
      new Gauge({ ...this.options(spec), collect, registers: [this.registry] })
    );
  }

  private options<S extends MetricSpec>(spec: S) {
    return { name: spec.name, help: spec.help, labelNames: spec.labelNames as LabelsOf<S>[] };
  }
}
