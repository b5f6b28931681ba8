// Load relative to the machine (issue 38): the latency scenarios run at shares
// of the floor pipeline's saturation throughput measured in the same invocation,
// so a slow day and a fast day load the platform alike (200/s stays a row of its own).

/** The shares of the floor's saturation the latency scenarios run at. */
export const RATE_SHARES = [0.35, 0.6];

/** The share the deep backlog and the soak run at, and CPU per task is judged at. */
export const BASE_SHARE = 0.35;

/** `35 %` for 0.35: how rows and keys name a share. */
export const sharePct = (share) => `${Math.round(share * 100)} %`;

/** The results' key of a share's figures: `at35` for 0.35. */
export const shareKey = (share) => `at${Math.round(share * 100)}`;

/** Submits per second at `share` of `saturationRps` (whole, at least 1). */
export const rateAt = (share, saturationRps) => Math.max(1, Math.round(share * saturationRps));

/** Every share with its rate, for a floor saturation of `saturationRps` submits/s. */
export function relativeRates(saturationRps) {
  return RATE_SHARES.map((share) => ({
    share,
    key: shareKey(share),
    rate: rateAt(share, saturationRps),
  }));
}

/**
 * The floor pipeline's CPU per task at a fixed rate, per run (µs), its
 * processes counted as ours are: cores used over the phase ÷ submits per second.
 */
export function floorCpuPerTaskAtRate(latencyPhase) {
  const processes = ['server', 'worker', 'loadgen', 'postgres', 'redis'];
  return latencyPhase.achieved_rate.runs.map(
    (rps, i) =>
      (processes.reduce((sum, p) => sum + latencyPhase.cpu_cores[p].runs[i], 0) / rps) * 1e6,
  );
}
