// Node's own sleep: @genhub/testing depends on this lib, so its spec cannot import it.
import { setTimeout as sleep } from 'node:timers/promises';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { LAG_SAMPLE_MS, sampleEventLoopLag } from './event-loop-lag.util';

/** One value from a whole scrape, as Prometheus would read it. */
async function read(registry: Registry, name: string): Promise<number> {
  const text = await registry.metrics();
  return Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1]);
}

describe('sampleEventLoopLag', () => {
  let registry: Registry;
  let stop: () => void;

  beforeEach(() => {
    registry = new Registry();
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 1000 });
    stop = sampleEventLoopLag(registry);
  });
  afterEach(() => stop());

  it("replaces prom-client's lag series under the same names, once each", async () => {
    const text = await registry.metrics();
    for (const stat of ['', 'min_', 'max_', 'mean_', 'stddev_', 'p50_', 'p90_', 'p99_'])
      expect(
        text.match(new RegExp(`^# TYPE nodejs_eventloop_lag_${stat}seconds gauge$`, 'gm')),
      ).toHaveLength(1);
  });

  it('reads about zero on an idle loop, not the sampling interval', async () => {
    await sleep(LAG_SAMPLE_MS * 4);
    const p50 = await read(registry, 'nodejs_eventloop_lag_p50_seconds');
    expect(p50).toBeGreaterThan(0);
    expect(p50).toBeLessThan((LAG_SAMPLE_MS / 1000) * 0.5);
  });

  it('sees a blocked loop, and starts afresh after a scrape', async () => {
    await sleep(LAG_SAMPLE_MS / 2);
    const until = performance.now() + 3 * LAG_SAMPLE_MS;
    while (performance.now() < until); // block the loop
    await sleep(LAG_SAMPLE_MS * 1.5);
    expect(await read(registry, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThan(
      (2 * LAG_SAMPLE_MS) / 1000,
    );
    await sleep(LAG_SAMPLE_MS * 3);
    expect(await read(registry, 'nodejs_eventloop_lag_max_seconds')).toBeLessThan(
      LAG_SAMPLE_MS / 1000,
    );
  });
});
