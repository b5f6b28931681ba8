// Percentiles and run aggregation, computed the same way as the floor (tools/bench/floor).
export const r2 = (x) => Math.round(x * 100) / 100;

export function pct(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function latency(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: r2(pct(s, 50)), p99: r2(pct(s, 99)) };
}

/** Median with min–max of repeated runs. */
export function agg(values) {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return { median: NaN, min: NaN, max: NaN, runs: values };
  const med = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return {
    median: r2(med),
    min: r2(s[0]),
    max: r2(s[s.length - 1]),
    runs: values.map((v) => (Number.isFinite(v) ? r2(v) : null)),
  };
}

/** Aggregates every numeric leaf across runs: [{a:1}, {a:2}] → {a: agg([1,2])}. */
export function aggRuns(runs) {
  // A run may leave a figure unmeasured (null): the others' still aggregate.
  const first = runs.find((r) => r !== null && r !== undefined) ?? runs[0];
  if (typeof first === 'number') return agg(runs);
  if (first && typeof first === 'object') {
    return Object.fromEntries(Object.keys(first).map((k) => [k, aggRuns(runs.map((r) => r?.[k]))]));
  }
  return first;
}

/**
 * Several aggregated results of one kind (the floor's, each of its own runs) as
 * one: every figure's runs side by side, aggregated again; a count of runs
 * (`true_in_runs`) summed. [{a: agg([1])}, {a: agg([3])}] → {a: agg([1, 3])}.
 */
export function mergeAggregates(results) {
  const first = results[0];
  if (!first || typeof first !== 'object') return first;
  if (Array.isArray(first.runs)) {
    const runs = results.flatMap((r) => r?.runs ?? []);
    return 'true_in_runs' in first
      ? { true_in_runs: runs.filter(Boolean).length, runs }
      : agg(runs);
  }
  return Object.fromEntries(
    Object.keys(first).map((k) => [k, mergeAggregates(results.map((r) => r?.[k]))]),
  );
}
