// The noisy neighbour (issue 36): what one account's backlog does to the other
// accounts' tasks, and what fair scheduling costs at saturation. Each part runs
// on a platform of its own (a fresh database and queue prefix, deleted after).
import http from 'node:http';
import { cpuSnapshot } from './proc.mjs';
import { cannon, now, openLoop, submitOnce, SUBMIT_BODY, SUBMIT_PATH } from './load.mjs';
import { checkpoint, seedAccounts, withPlatform } from './platform.mjs';
import { waitQuiet } from './quiet.mjs';
import { cpuPerTask, groups } from './scenarios.mjs';
import { latency, r2 } from './stats.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The scenario's parameters (docs/performance.md states them; the results JSON records them). */
export const NOISY_NEIGHBOUR = {
  /** Tasks the noisy account keeps submitted and not yet finished (waiting, plus the few running). */
  backlog: 10_000,
  /** The noisy account's simulator tasks: 10,000 of them keep 50 slots busy for a minute. */
  noisy_task_ms: 300,
  quiet_accounts: 20,
  /** Each quiet account submits one task this often: 10 submits/s in all. */
  quiet_every_s: 2,
  /** The quiet accounts' simulator tasks. */
  quiet_task_ms: 100,
  /** The measured trickle, with the backlog and without, each after 2 s of discarded warm-up. */
  trickle_s: 30,
  warm_up_s: 2,
  /** How long after its submit a quiet task may take before it counts as unfinished (censored here). */
  quiet_wait_s: 30,
  /** Accounts the saturation load is spread over, so that fair scheduling has work to do. */
  saturation_accounts: 20,
};
const P = NOISY_NEIGHBOUR;

const simulator = (ms) =>
  JSON.stringify({ prompt: 'a noisy neighbour', duration_ms: ms, num_outputs: 0 });
const NOISY_BODY = simulator(P.noisy_task_ms);
const QUIET_BODY = simulator(P.quiet_task_ms);

/**
 * The quiet accounts' trickle: 2 s of warm-up (discarded), then `trickle_s` at
 * one task per account every `quiet_every_s`; waits for their terminal notices
 * (at most `quiet_wait_s` after the last submit). An unfinished task counts
 * with the time it had waited by then, so the p99 is a lower bound when any is.
 */
async function trickle({ platform, keys, notices }) {
  const rate = keys.length / P.quiet_every_s;
  const loop = (seconds) =>
    openLoop({ baseUrl: platform.baseUrl, keys, rate, seconds, body: QUIET_BODY });
  await loop(P.warm_up_s);
  const records = await loop(P.trickle_s);
  const ok = records.filter((r) => r.status === 200 && r.id);
  await notices.waitFor(
    ok.map((r) => r.id),
    P.quiet_wait_s * 1000,
  );
  const givenUpAt = now();
  const waited = ok.map((r) => (notices.seen.get(r.id) ?? givenUpAt) - r.sentAt);
  const l = latency(waited);
  return {
    p50: l.p50,
    p99: l.p99,
    submitted: records.length,
    refused: records.length - ok.length,
    unfinished: ok.filter((r) => !notices.seen.has(r.id)).length,
  };
}

/**
 * Submits `count` tasks of one account, 50 at a time; adds the accepted ids to
 * `outstanding` and returns the number refused.
 */
async function submitMany({ agent, baseUrl, key, count, outstanding }) {
  let left = count;
  let refused = 0;
  await Promise.all(
    Array.from({ length: Math.min(50, count) }, async () => {
      while (left > 0) {
        left--;
        const r = await submitOnce(agent, baseUrl, key, '', NOISY_BODY);
        if (r.status === 200 && r.id) outstanding.add(r.id);
        else refused++;
      }
    }),
  );
  return refused;
}

/** Drops from `outstanding` the tasks whose terminal notice arrived. */
function prune(outstanding, notices) {
  for (const id of outstanding) if (notices.seen.has(id)) outstanding.delete(id);
}

/**
 * Part 1, fair scheduling as configured (on by default): the quiet trickle
 * alone (the baseline), then the same trickle while the noisy account keeps
 * `backlog` tasks outstanding (topped up every 100 ms as they finish).
 */
async function trickleWithAndWithoutBacklog({ log, nodeArgs, label }) {
  return withPlatform({ label, nodeArgs }, async ({ platform, env, notices }) => {
    const [noisyKey, ...quietKeys] = await seedAccounts(
      platform.baseUrl,
      env.ADMIN_TOKEN,
      1 + P.quiet_accounts,
    );
    await checkpoint();
    log(`noisy neighbour: the quiet trickle alone, ${P.trickle_s} s`);
    await waitQuiet(log);
    const baseline = await trickle({ platform, keys: quietKeys, notices });

    log(`noisy neighbour: submitting the noisy account's ${P.backlog} tasks`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const outstanding = new Set();
    const fillStart = Date.now();
    let refused = await submitMany({
      agent,
      baseUrl: platform.baseUrl,
      key: noisyKey,
      count: P.backlog,
      outstanding,
    });
    const fill_s = r2((Date.now() - fillStart) / 1000);
    let toppedUp = 0;
    const topUpOnce = async () => {
      prune(outstanding, notices);
      const missing = P.backlog - outstanding.size;
      if (missing <= 0) return;
      toppedUp += missing;
      refused += await submitMany({
        agent,
        baseUrl: platform.baseUrl,
        key: noisyKey,
        count: missing,
        outstanding,
      });
    };
    // What ran during the fill is replaced before the trickle starts (in rounds: more
    // finish during each, the fewer the faster the gateway takes submits).
    for (let round = 0; round < 10; round++) {
      prune(outstanding, notices);
      if (outstanding.size >= P.backlog * 0.99) break;
      await topUpOnce();
    }
    log(`noisy neighbour: the quiet trickle behind the backlog, ${P.trickle_s} s`);
    let topping = true;
    let backlogMin = Infinity;
    const topUp = (async () => {
      while (topping) {
        prune(outstanding, notices);
        backlogMin = Math.min(backlogMin, outstanding.size);
        await topUpOnce();
        await sleep(100);
      }
    })();
    let withBacklog;
    try {
      withBacklog = await trickle({ platform, keys: quietKeys, notices });
    } finally {
      topping = false;
      await topUp;
      agent.destroy();
    }
    prune(outstanding, notices);
    // The backlog left is deleted with the platform (its database and queue keys).
    return {
      baseline,
      with_backlog: withBacklog,
      backlog: {
        fill_s,
        min_outstanding: backlogMin,
        topped_up: toppedUp,
        refused,
        left_at_end: outstanding.size,
      },
    };
  });
}

/**
 * Part 2, one saturation phase on a fresh platform with FAIR_SCHEDULING as
 * given: 50 connections submitting 0 ms simulator tasks over
 * `saturation_accounts` accounts for `duration` s; completions per second from
 * the first submit to the last terminal notice (every accepted task, up to 120 s
 * of drain), and CPU per task of every process.
 */
async function saturation({ log, nodeArgs, label, fair, duration }) {
  return withPlatform(
    { label, nodeArgs, extraEnv: { FAIR_SCHEDULING: String(fair) } },
    async ({ platform, env, notices }) => {
      const keys = await seedAccounts(platform.baseUrl, env.ADMIN_TOKEN, P.saturation_accounts);
      await checkpoint();
      log(`noisy neighbour: saturation, FAIR_SCHEDULING=${fair}, ${duration} s`);
      await waitQuiet(log);
      let k = 0;
      const alreadySeen = notices.seen.size;
      const before = cpuSnapshot(groups(platform));
      const start = now();
      const result = await cannon({
        url: `${platform.baseUrl}${SUBMIT_PATH}`,
        body: SUBMIT_BODY,
        duration,
        next: () => ({
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${keys[k++ % keys.length]}`,
          },
        }),
      });
      const drainStart = Date.now();
      while (notices.seen.size < alreadySeen + result.ok && Date.now() - drainStart < 120_000)
        await sleep(20);
      const completed = notices.seen.size - alreadySeen;
      let last = start;
      for (const at of [...notices.seen.values()].slice(alreadySeen)) last = Math.max(last, at);
      return {
        fair,
        submit_rps: result.rps,
        accepted: result.ok,
        completed,
        non2xx: result.non2xx,
        drain_s: r2((Date.now() - drainStart) / 1000),
        completed_per_s: r2((completed / (last - start)) * 1000),
        cpu_us_per_task: cpuPerTask(platform, before, completed),
      };
    },
  );
}

/**
 * The saturation phases' FAIR_SCHEDULING, in order (each on a fresh
 * platform): ABBA BAAB, so that a machine speeding up or slowing down over
 * the two minutes weighs on both alike; one 10 s phase varies by ±8 % from
 * the next on this machine, so four of each.
 */
export const SATURATION_ORDER = [true, false, false, true, false, true, true, false];

/** One repetition of the scenario: the trickle with and without the backlog, then the saturation phases. */
export async function noisyNeighbour({ log, nodeArgs, duration, repetition }) {
  const trickles = await trickleWithAndWithoutBacklog({
    log,
    nodeArgs,
    label: `nn${repetition}`,
  });
  const phases = [];
  for (const [i, fair] of SATURATION_ORDER.entries())
    phases.push(await saturation({ log, nodeArgs, label: `nn${repetition}s${i}`, fair, duration }));
  const sum = (fair) =>
    phases.filter((p) => p.fair === fair).reduce((a, p) => a + p.completed_per_s, 0);
  const perPhase = SATURATION_ORDER.length / 2;
  /** Each process's CPU per task, the mean of one mode's phases (µs). */
  const cpu = (fair) => {
    const mean = {};
    for (const p of phases.filter((p) => p.fair === fair))
      for (const [k, us] of Object.entries(p.cpu_us_per_task))
        mean[k] = r2((mean[k] ?? 0) + us / perPhase);
    return mean;
  };
  return {
    quiet_p99_ms_baseline: trickles.baseline.p99,
    quiet_p99_ms_with_backlog: trickles.with_backlog.p99,
    quiet_p99_ratio: r2(trickles.with_backlog.p99 / trickles.baseline.p99),
    completed_per_s_fair: r2(sum(true) / perPhase),
    completed_per_s_fifo: r2(sum(false) / perPhase),
    fair_vs_fifo_throughput: r2(sum(true) / sum(false)),
    cpu_us_per_task_fair: cpu(true),
    cpu_us_per_task_fifo: cpu(false),
    trickles,
    saturation: phases,
  };
}
