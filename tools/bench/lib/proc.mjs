// Reads CPU time and memory of processes from /proc (Linux); touches nothing.
import { readFileSync, readdirSync } from 'node:fs';

const CLK_TCK = 100;

export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

export function rssBytes(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function pidsByComm(prefix) {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/comm`, 'utf8').startsWith(prefix);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** CPU seconds per group; a group is a list of pids or 'comm:<prefix>' (PostgreSQL backends come and go). */
export function cpuSnapshot(groups) {
  return Object.fromEntries(
    Object.entries(groups).map(([name, g]) => {
      const pids = typeof g === 'string' ? pidsByComm(g.slice(5)) : g;
      return [name, pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)];
    }),
  );
}

export function cpuDelta(before, after) {
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - (before[k] ?? 0)]));
}
