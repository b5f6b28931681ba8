// Reads CPU time and memory of processes from /proc (Linux); touches nothing.
import { readFileSync, readdirSync } from 'node:fs';

const CLK_TCK = 100;

/** The fields of /proc/<pid>/stat after the command name; undefined when the process is gone. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A process's own CPU seconds (utime + stime) from its stat fields. */
const ownSeconds = (f) => (Number(f[11]) + Number(f[12])) / CLK_TCK;

export function cpuSeconds(pid) {
  const f = statFields(pid);
  return f ? ownSeconds(f) : 0;
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

/**
 * A group named by command: each process's CPU seconds, and what the group's
 * roots (those whose parent is not in it: PostgreSQL's postmaster) have
 * reaped from children that exited (cutime + cstime).
 */
function commGroup(prefix) {
  const pids = new Set(pidsByComm(prefix));
  const perPid = {};
  let reaped = 0;
  for (const pid of pids) {
    const f = statFields(pid);
    if (!f) continue;
    perPid[pid] = ownSeconds(f);
    if (!pids.has(Number(f[1]))) reaped += (Number(f[13]) + Number(f[14])) / CLK_TCK;
  }
  return { perPid, reaped };
}

/**
 * CPU per group; a group is a list of pids or 'comm:<prefix>'. Processes of a
 * comm group come and go (PostgreSQL closes idle pool connections and starts
 * parallel workers), so its snapshot keeps each one's CPU and what its roots
 * reaped: cpuDelta then counts a process that exited between two snapshots
 * for its time after the first, not for its whole life (nor not at all).
 */
export function cpuSnapshot(groups) {
  return Object.fromEntries(
    Object.entries(groups).map(([name, g]) => [
      name,
      typeof g === 'string'
        ? commGroup(g.slice(5))
        : g.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    ]),
  );
}

/** CPU seconds per group between two snapshots. */
export function cpuDelta(before, after) {
  return Object.fromEntries(Object.keys(after).map((k) => [k, groupDelta(before[k], after[k])]));
}

function groupDelta(before, after) {
  if (typeof after === 'number') return after - (before ?? 0);
  const earlier = before ?? { perPid: {}, reaped: after.reaped };
  let seconds = after.reaped - earlier.reaped;
  for (const [pid, s] of Object.entries(after.perPid)) seconds += s - (earlier.perPid[pid] ?? 0);
  // An exited process's whole life is in the reaped time: take off what it had before.
  for (const [pid, s] of Object.entries(earlier.perPid)) if (!(pid in after.perPid)) seconds -= s;
  return seconds;
}
