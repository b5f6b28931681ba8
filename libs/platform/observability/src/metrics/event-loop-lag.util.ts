import { createHistogram, RecordableHistogram } from 'node:perf_hooks';
import { Gauge, Registry } from 'prom-client';

/** How often the loop is sampled. prom-client's default monitor wakes every 10 ms. */
export const LAG_SAMPLE_MS = 100;

/** The prom-client series this sampler replaces, with the statistic each reports. */
const SERIES: Record<string, { help: string; read: (h: RecordableHistogram) => number }> = {
  nodejs_eventloop_lag_seconds: { help: 'Lag of event loop in seconds.', read: (h) => h.mean },
  nodejs_eventloop_lag_min_seconds: {
    help: 'The minimum recorded event loop delay.',
    read: (h) => h.min,
  },
  nodejs_eventloop_lag_max_seconds: {
    help: 'The maximum recorded event loop delay.',
    read: (h) => h.max,
  },
  nodejs_eventloop_lag_mean_seconds: {
    help: 'The mean of the recorded event loop delays.',
    read: (h) => h.mean,
  },
  nodejs_eventloop_lag_stddev_seconds: {
    help: 'The standard deviation of the recorded event loop delays.',
    read: (h) => h.stddev,
  },
  nodejs_eventloop_lag_p50_seconds: {
    help: 'The 50th percentile of the recorded event loop delays.',
    read: (h) => h.percentile(50),
  },
  nodejs_eventloop_lag_p90_seconds: {
    help: 'The 90th percentile of the recorded event loop delays.',
    read: (h) => h.percentile(90),
  },
  nodejs_eventloop_lag_p99_seconds: {
    help: 'The 99th percentile of the recorded event loop delays.',
    read: (h) => h.percentile(99),
  },
};

/**
 * Event-loop delay, sampled every LAG_SAMPLE_MS instead of prom-client's
 * 10 ms monitor: that one wakes an idle process 100 times a second, which cost
 * each app about 2 % of a core here (docs/decisions/0098). A sample is how
 * late the timer fired, so an idle loop reads about 0, not the monitor's
 * resolution. Replaces prom-client's `nodejs_eventloop_lag_*` series in
 * `registry` (same names); the histogram resets at each scrape, as theirs does.
 */
export function sampleEventLoopLag(registry: Registry): () => void {
  const histogram = createHistogram();
  let expected = performance.now() + LAG_SAMPLE_MS;
  const tick = () => {
    const now = performance.now();
    // Nanoseconds, at least 1: the histogram records positive integers only.
    histogram.record(Math.max(1, Math.round((now - expected) * 1e6)));
    expected = now + LAG_SAMPLE_MS;
    timer = setTimeout(tick, LAG_SAMPLE_MS).unref();
  };
  let timer = setTimeout(tick, LAG_SAMPLE_MS).unref();

  const names = Object.keys(SERIES);
  const gauges = new Map<string, Gauge>();
  const collect = () => {
    // Before the first sample every statistic is 0 rather than the histogram's NaN/extremes.
    const empty = histogram.count === 0;
    for (const [name, gauge] of gauges) gauge.set(empty ? 0 : SERIES[name].read(histogram) / 1e9);
    histogram.reset();
  };
  for (const name of names) {
    registry.removeSingleMetric(name);
    gauges.set(
      name,
      new Gauge({
        name,
        help: SERIES[name].help,
        registers: [registry],
        // One series' collect sets them all, as prom-client's own does.
        ...(name === names[0] ? { collect } : {}),
      }),
    );
  }
  return () => clearTimeout(timer);
}
