// The machine is shared: like the floor (waitQuiet in tools/bench/floor/src/lib/common.ts),
// wait before each measurement until other tenants leave the box nearly idle,
// so the platform and its floor are measured under the same conditions.
import fs from 'node:fs';

const envNum = (k, d) => (process.env[k] ? Number(process.env[k]) : d);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function machineTicks() {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
  const n = cpu.map(Number);
  return { total: n.reduce((a, b) => a + b, 0), idle: n[3] + (n[4] ?? 0) };
}

/** Waits (up to QUIET_MAX_S, default 60 s) for QUIET_SECS seconds at most QUIET_PCT % busy; returns the last busy %. */
export async function waitQuiet(log) {
  const until = Date.now() + envNum('QUIET_MAX_S', 60) * 1000;
  const threshold = envNum('QUIET_PCT', 25);
  let busy = 100;
  let quiet = 0;
  for (let n = 0; ; n++) {
    const a = machineTicks();
    await sleep(1000);
    const b = machineTicks();
    const dt = b.total - a.total;
    busy = dt ? (100 * (dt - (b.idle - a.idle))) / dt : 0;
    quiet = busy <= threshold ? quiet + 1 : 0;
    if (quiet >= envNum('QUIET_SECS', 2) || Date.now() > until) return Math.round(busy);
    if (busy > threshold && n % 10 === 0)
      log(
        `machine busy ${Math.round(busy)}% before the measurement (other tenants), waiting for quiet...`,
      );
  }
}
