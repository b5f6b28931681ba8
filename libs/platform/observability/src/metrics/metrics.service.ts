import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricSpec } from './metric-catalogue';

/** The label names of a catalogue entry, as a union type. */
type LabelsOf<S extends MetricSpec> = S['labelNames'][number];

/**
 * One Prometheus registry per process. Series are created from catalogue
 * entries (METRICS); asking twice for one entry returns the same series.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
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
