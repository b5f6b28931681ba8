import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The bench's table: rows judged against their targets, and figures shown without one.
const MODULE = path.resolve(__dirname, '../bench/lib/report.mjs');
const STATS = path.resolve(__dirname, '../bench/lib/stats.mjs');
const STREAMS = path.resolve(__dirname, '../bench/lib/event-streams.mjs');

/** Runs `expression` with the module at `file` as `m`; its value as JSON. */
function evaluate(file: string, expression: string): unknown {
  const script = `import * as m from ${JSON.stringify(file)}; console.log(JSON.stringify(${expression}));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  );
}

function table(rows: unknown[], saturation?: unknown): string[] {
  const rendered = evaluate(
    MODULE,
    `m.renderTable(${JSON.stringify(rows)}, ${JSON.stringify(saturation)})`,
  ) as string;
  return rendered.trim().split('\n');
}

const agg = (median: number) => ({ median, min: median, max: median });

describe('bench table', () => {
  it('judges a row against its target, and shows a figure without one unjudged', () => {
    const lines = table(
      [
        { metric: 'judged', ours: agg(3), floor: agg(2), target: { kind: 'ratio<=', value: 1.2 } },
        { metric: 'shown', ours: agg(25) },
      ],
      agg(1500),
    );
    expect(lines.slice(2)).toEqual([
      '| judged | 3 [3–3] | 2 [2–2] | 1.5 | ratio ≤ 1.2 | no | 1500 |',
      '| shown | 25 [25–25] | — | — | — | — | 1500 |',
    ]);
  });
});

describe('bench figures a run could not measure', () => {
  it('aggregates the runs that measured a figure and keeps the others as null', () => {
    const runs = [
      { kb: null, cpu: 4 },
      { kb: 12.5, cpu: 3 },
      { kb: null, cpu: 10 },
    ];
    expect(evaluate(STATS, `m.aggRuns(${JSON.stringify(runs)})`)).toEqual({
      kb: { median: 12.5, min: 12.5, max: 12.5, runs: [null, 12.5, null] },
      cpu: { median: 4, min: 3, max: 10, runs: [4, 3, 10] },
    });
  });

  it('shows a figure no run measured as n/a, not met', () => {
    const ours = evaluate(STATS, 'm.aggRuns([{ kb: null }, { kb: null }])') as { kb: unknown };
    const lines = table([
      { metric: 'RSS per stream', ours: ours.kb, target: { kind: 'abs<=', value: 64 } },
    ]);
    expect(lines[2]).toBe('| RSS per stream | n/a | — | — | value ≤ 64 | n/a | — |');
  });

  it('gives no RSS per stream when the RSS fell between the windows (a collection hid it)', () => {
    const mb = 1024 * 1024;
    expect(evaluate(STREAMS, `m.rssPerStream(${200 * mb}, ${210 * mb}, 1000)`)).toBe(10.24);
    expect(evaluate(STREAMS, `m.rssPerStream(${200 * mb}, ${180 * mb}, 1000)`)).toBeNull();
  });
});

describe("the floor's runs taken one at a time beside ours", () => {
  it('merges their aggregates into one: every figure over all the runs, counts summed', () => {
    const one = (p99: number | null, contaminated: boolean) => ({
      latency_phase: {
        submit_ms_p99: { median: p99, min: p99, max: p99, spread_pct: 0, runs: [p99] },
      },
      contaminated: { true_in_runs: contaminated ? 1 : 0, runs: [contaminated] },
    });
    const merged = evaluate(
      STATS,
      `m.mergeAggregates(${JSON.stringify([one(9, false), one(null, true), one(5, false), one(7, false)])})`,
    );
    expect(merged).toEqual({
      latency_phase: { submit_ms_p99: { median: 7, min: 5, max: 9, runs: [9, null, 5, 7] } },
      contaminated: { true_in_runs: 1, runs: [false, true, false, false] },
    });
  });
});

describe('which results are kept', () => {
  it('keeps a result per machine, kind of day (by the floor’s saturation) and --only scenario', () => {
    const machine = { kind: '2 × AMD EPYC' };
    const kinds = evaluate(
      MODULE,
      `[
        { machine: ${JSON.stringify(machine)}, floor_saturation: { median: 658 } },
        { machine: ${JSON.stringify(machine)}, floor_saturation: { median: 999 }, only: 'rates' },
        { machine: ${JSON.stringify(machine)}, floor_saturation: { median: 1000 } },
        { machine: ${JSON.stringify(machine)}, only: 'noisy-neighbour' },
        {},
      ].map(m.keptKind)`,
    );
    expect(kinds).toEqual([
      '2 × AMD EPYC, a slow day',
      '2 × AMD EPYC, a slow day, --only rates',
      '2 × AMD EPYC, a fast day',
      '2 × AMD EPYC, --only noisy-neighbour',
      '(machine not recorded)',
    ]);
  });
});

describe('a latency window’s warm-up', () => {
  const LOAD = path.resolve(__dirname, '../bench/lib/load.mjs');

  it('lasts 2 s, as the floor’s, and long enough to use every key once (the gateway caches a key at first use)', () => {
    expect(evaluate(LOAD, 'm.warmUpSeconds(new Array(1000), 600)')).toBe(2);
    expect(evaluate(LOAD, 'm.warmUpSeconds(new Array(1000), 200)')).toBe(5);
    expect(evaluate(LOAD, 'm.warmUpSeconds(new Array(20), 10)')).toBe(2);
  });

  it('lasts until the apps have been ready for SETTLE_SECONDS (their start-up is not the load measured)', () => {
    expect(evaluate(LOAD, 'm.SETTLE_SECONDS')).toBe(30);
    const justReady = evaluate(LOAD, 'm.warmUpSeconds(new Array(1000), 600, Date.now())') as number;
    expect(justReady).toBeGreaterThan(29);
    expect(justReady).toBeLessThanOrEqual(30);
    expect(
      evaluate(LOAD, 'm.warmUpSeconds(new Array(1000), 600, Date.now() - 20_000)'),
    ).toBeCloseTo(10, 0);
    expect(evaluate(LOAD, 'm.warmUpSeconds(new Array(1000), 200, Date.now() - 60_000)')).toBe(5);
  });
});
