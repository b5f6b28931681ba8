// The six measurements of issue 11, each one run against a started platform.
import http from 'node:http';
import { cpuDelta, cpuSnapshot, rssBytes } from './proc.mjs';
import {
  cannon,
  now,
  openLoop,
  SUBMIT_BODY,
  SUBMIT_PATH,
  warmUpSeconds,
  withAgent,
} from './load.mjs';
import { latency, r2 } from './stats.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function groups(platform) {
  return {
    ...Object.fromEntries(Object.entries(platform.pids).map(([app, pid]) => [app, [pid]])),
    loadgen: [process.pid],
    postgres: 'comm:postgres',
    redis: 'comm:redis-server',
  };
}

/** CPU per task of every process (µs) between a snapshot and now, with their total. */
export function cpuPerTask(platform, before, tasks) {
  const cpu = cpuDelta(before, cpuSnapshot(groups(platform)));
  const perTaskUs = Object.fromEntries(
    Object.entries(cpu).map(([k, s]) => [k, r2((s * 1e6) / Math.max(1, tasks))]),
  );
  perTaskUs.total = r2(Object.values(perTaskUs).reduce((a, b) => a + b, 0));
  return perTaskUs;
}

/** 1. Async submit throughput, 50 connections over all keys, and CPU per task of every process (until drained). */
export async function submitThroughput({ platform, keys, notices, duration }) {
  let k = 0;
  const alreadySeen = notices.seen.size;
  const before = cpuSnapshot(groups(platform));
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
  // Drain: every accepted task must turn terminal before the CPU window closes.
  const drainStart = Date.now();
  while (notices.seen.size < alreadySeen + result.ok && Date.now() - drainStart < 120_000)
    await sleep(50);
  return {
    submit_rps: result.rps,
    non2xx: result.non2xx,
    drain_s: r2((Date.now() - drainStart) / 1000),
    cpu_us_per_task: cpuPerTask(platform, before, result.ok),
  };
}

/** 2. Fixed 200 submits/s for 10 s: submit latency, submit → terminal notice, and CPU per task. */
export async function fixedRate({ platform, keys, notices, rate, duration }) {
  const { before, records } = await withAgent(async (agent) => {
    const seconds = warmUpSeconds(keys, rate, platform.readyAt);
    await openLoop({ baseUrl: platform.baseUrl, keys, rate, seconds, agent }); // warm-up, discarded
    const before = cpuSnapshot(groups(platform));
    return {
      before,
      records: await openLoop({ baseUrl: platform.baseUrl, keys, rate, seconds: duration, agent }),
    };
  });
  const ok = records.filter((r) => r.status === 200 && r.id);
  await notices.waitFor(ok.map((r) => r.id));
  const cpu = cpuPerTask(platform, before, ok.length);
  const toCompleted = ok
    .filter((r) => notices.seen.has(r.id))
    .map((r) => notices.seen.get(r.id) - r.sentAt);
  const submit = latency(ok.map((r) => r.doneAt - r.sentAt));
  const completed = latency(toCompleted);
  return {
    non200: records.length - ok.length,
    submit_ms_p50: submit.p50,
    submit_ms_p99: submit.p99,
    submit_to_completed_ms_p50: completed.p50,
    submit_to_completed_ms_p99: completed.p99,
    completed_seen: completed.n,
    cpu_us_per_task: cpu,
    ids: ok.map((r, i) => ({ id: r.id, key: keys[i % keys.length] })),
  };
}

/** 3. Result polling of completed tasks, 50 connections. */
export async function polling({ platform, tasks, duration }) {
  let k = 0;
  const r = await cannon({
    url: `${platform.baseUrl}/v1/requests/x`,
    method: 'GET',
    duration,
    next: () => {
      const t = tasks[k++ % tasks.length];
      return {
        method: 'GET',
        path: `/v1/requests/${t.id}`,
        headers: { authorization: `Bearer ${t.key}` },
      };
    },
  });
  return { poll_rps: r.rps, poll_ms_p99: r.p99_ms, non2xx: r.non2xx };
}

/** 4. One hot account submitting alone. */
export async function hotAccount({ platform, key, duration }) {
  const r = await cannon({
    url: `${platform.baseUrl}${SUBMIT_PATH}`,
    body: SUBMIT_BODY,
    duration,
    next: () => ({
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    }),
  });
  return { hot_submit_rps: r.rps, non2xx: r.non2xx };
}

/** 5. Webhook delay: terminal notice → first delivery attempt arriving at a local receiver (after 2 s of warm-up). */
export async function webhookDelay({ platform, keys, notices, rate, duration }) {
  const arrivals = new Map();
  const receiver = http.createServer((req, res) => {
    const at = now();
    const id = req.headers['webhook-id'];
    if (id && !arrivals.has(id)) arrivals.set(id, at);
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = encodeURIComponent(`http://127.0.0.1:${receiver.address().port}/hook`);
  try {
    return await withAgent((agent) =>
      webhookWindows({ platform, keys, notices, rate, duration, hook, arrivals, agent }),
    );
  } finally {
    receiver.close();
  }
}

/** The webhook delay's warm-up and window, on one agent's connections. */
async function webhookWindows({ platform, keys, notices, rate, duration, hook, arrivals, agent }) {
  // The warm-up, discarded, as in the fixed-rate scenario (warmUpSeconds): the
  // dispatcher's first deliveries open its pools and connections.
  const warm = await openLoop({
    baseUrl: platform.baseUrl,
    keys,
    rate,
    seconds: warmUpSeconds(keys, rate, platform.readyAt),
    query: `?webhook=${hook}`,
    agent,
  });
  const warmIds = warm.filter((r) => r.status === 200 && r.id).map((r) => r.id);
  const warmDeadline = Date.now() + 30_000;
  while (Date.now() < warmDeadline && warmIds.some((id) => !arrivals.has(id))) await sleep(50);
  const records = await openLoop({
    baseUrl: platform.baseUrl,
    keys,
    rate,
    seconds: duration,
    query: `?webhook=${hook}`,
    agent,
  });
  const ids = records.filter((r) => r.status === 200 && r.id).map((r) => r.id);
  await notices.waitFor(ids);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && ids.some((id) => !arrivals.has(id))) await sleep(50);
  const delays = ids
    .filter((id) => arrivals.has(id) && notices.seen.has(id))
    .map((id) => arrivals.get(id) - notices.seen.get(id));
  const l = latency(delays);
  return {
    webhook_delay_ms_p50: l.p50,
    webhook_delay_ms_p99: l.p99,
    delivered: l.n,
    sent: ids.length,
  };
}

/** 6. Gateway RSS growth while a 100 MB upload streams through it. */
export async function uploadRss({ platform, key, megabytes = 100 }) {
  const pid = platform.pids.gateway;
  const baseline = rssBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 20);
  const boundary = `----genhub${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  // A minimal MP4 signature (ftyp box) followed by filler: sniffed as video/mp4.
  const ftyp = Buffer.from('000000186674797069736000000000069736f6d6d703432', 'hex');
  const size = megabytes * 1024 * 1024 - 1024;
  const chunk = Buffer.alloc(1024 * 1024);
  const status = await new Promise((resolve) => {
    const req = http.request(`${platform.baseUrl}/api/v3/files/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + ftyp.length + size + tail.length,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(-1));
    (async () => {
      req.write(head);
      req.write(ftyp);
      let left = size;
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
          await new Promise((r) => req.once('drain', r));
        left -= n;
      }
      req.end(tail);
    })();
  });
  clearInterval(sampler);
  return { upload_status: status, rss_growth_mb: r2((peak - baseline) / 1024 / 1024) };
}
