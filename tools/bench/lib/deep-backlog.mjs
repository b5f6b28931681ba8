// The deep backlog (issue 38): what 100,000 tasks waiting in the fair stage
// (libs/shared/queue/src/fair) do to submits, what they cost Redis, and how
// fast they drain. On a platform of its own (deleted after, backlog included).
import http from 'node:http';
import { submitOnce } from './load.mjs';
import { checkpoint, seedAccounts, withPlatform } from './platform.mjs';
import { prefixKeys } from './prefix-keys.mjs';
import { waitQuiet } from './quiet.mjs';
import { submitLatency } from './submit-latency.mjs';
import { r2 } from './stats.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The scenario's parameters (docs/performance.md states them; the results JSON records them). */
export const DEEP_BACKLOG = {
  /** Tasks queued before the measurement (`--backlog-tasks` for a short smoke run). */
  tasks: 100_000,
  /** Submits in flight while filling. */
  fill_connections: 50,
  /** Redis memory per queued task, goal (bytes). */
  bytes_per_task_goal: 2048,
};

/** Submits `count` 0 ms tasks over `keys`, `connections` at a time; the accepted ids. */
async function fill({ baseUrl, keys, count, connections }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const ids = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(connections, count) }, async () => {
      while (next < count) {
        const i = next++;
        const r = await submitOnce(agent, baseUrl, keys[i % keys.length]);
        if (r.status === 200 && r.id) ids.push(r.id);
      }
    }),
  );
  agent.destroy();
  return ids;
}

/**
 * Submit p99 at `rate` with nothing queued (the baseline), then: the
 * task-worker paused (SIGSTOP: the stage keeps what it is given), `tasks`
 * submitted, the prefix's Redis memory read before and after, and submit p99
 * at `rate` again with them queued (what the backlog's depth does to a
 * submit); the worker resumed (SIGCONT) and, at once, submit p99 at `rate`
 * once more while it works the backlog down (the drain takes what CPU the
 * machine has: on two cores the submits share it); the drain rate is every
 * task submitted since the pause ÷ the time from the resume to the last
 * terminal notice.
 */
export async function deepBacklog({ log, nodeArgs, rate, duration, accounts, tasks }) {
  return withPlatform({ label: 'deep', nodeArgs }, async ({ platform, env, notices }) => {
    const keys = await seedAccounts(platform.baseUrl, env.ADMIN_TOKEN, accounts);
    await checkpoint();
    log(`deep backlog: ${rate} submits/s for ${duration} s, nothing queued`);
    await waitQuiet(log);
    const baseline = await submitLatency({ platform, keys, rate, duration });
    await notices.waitFor(baseline.ids);
    const before = await prefixKeys(env.REDIS_URL, env.QUEUE_PREFIX);
    const worker = platform.pids['task-worker'];
    log(`deep backlog: task-worker paused, queueing ${tasks.toLocaleString('en')} tasks`);
    process.kill(worker, 'SIGSTOP');
    let queued;
    let after;
    let fill_s;
    let queuedBehind;
    const fillStart = Date.now();
    try {
      queued = await fill({
        baseUrl: platform.baseUrl,
        keys,
        count: tasks,
        connections: DEEP_BACKLOG.fill_connections,
      });
      fill_s = r2((Date.now() - fillStart) / 1000);
      after = await prefixKeys(env.REDIS_URL, env.QUEUE_PREFIX);
      log(`deep backlog: ${rate} submits/s for ${duration} s with the backlog queued`);
      await waitQuiet(log);
      queuedBehind = await submitLatency({ platform, keys, rate, duration });
    } finally {
      process.kill(worker, 'SIGCONT');
    }
    const alreadySeen = notices.seen.size;
    const resumedAt = Date.now();
    log(`deep backlog: worker resumed; ${rate} submits/s for ${duration} s behind the backlog`);
    const behind = await submitLatency({ platform, keys, rate, duration });
    // Every task accepted since the pause: the backlog, both windows and their warm-ups.
    const expected = queued.length + queuedBehind.accepted + behind.accepted;
    const timeoutMs = Math.max(300_000, (expected / Math.max(1, rate)) * 2000);
    let lastSeen = alreadySeen;
    let stalledSince = Date.now();
    // Until every task has its notice, or no notice came for 60 s (the figure says how many).
    while (Date.now() - resumedAt < timeoutMs && Date.now() - stalledSince < 60_000) {
      const seen = notices.seen.size - alreadySeen;
      if (seen >= expected) break;
      if (notices.seen.size !== lastSeen) {
        lastSeen = notices.seen.size;
        stalledSince = Date.now();
      }
      await sleep(100);
    }
    let last = resumedAt;
    for (const at of [...notices.seen.values()].slice(alreadySeen)) last = Math.max(last, at);
    const drained = notices.seen.size - alreadySeen;
    const { ids: _b, ...baselineFigures } = baseline;
    const { ids: _w, ...behindFigures } = behind;
    const { ids: _q, ...queuedFigures } = queuedBehind;
    return {
      baseline: baselineFigures,
      queued_backlog: queuedFigures,
      behind_backlog: behindFigures,
      submit_p99_ratio: r2(queuedBehind.submit_ms_p99 / baseline.submit_ms_p99),
      submit_p99_ratio_draining: r2(behind.submit_ms_p99 / baseline.submit_ms_p99),
      queued: queued.length,
      refused: tasks - queued.length,
      fill_s,
      redis_keys_before: before.sizes.size,
      redis_keys_queued: after.sizes.size,
      redis_bytes_per_task: r2((after.bytes - before.bytes) / Math.max(1, queued.length)),
      drained,
      drain_s: r2((last - resumedAt) / 1000),
      drain_per_s: r2((drained / Math.max(1, last - resumedAt)) * 1000),
    };
  });
}
