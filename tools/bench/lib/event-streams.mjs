// What open task event streams cost the gateway (issue 21): memory and CPU per
// open stream, with the tasks they follow waiting or running, the worst case
// (queue positions are read every 2 s for the waiting ones).
import http from 'node:http';
import { cpuDelta, cpuSnapshot, rssBytes } from './proc.mjs';
import { agg, r2 } from './stats.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** An account may hold 100 streams per gateway: spread them. */
const STREAMS_PER_KEY = 10;

async function submitLongTask(baseUrl, key) {
  const response = await fetch(`${baseUrl}/v1/local/simulator/test`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'followed', duration_ms: 120_000 }),
  });
  return (await response.json()).id;
}

/** Opens one stream on its own connection; resolves once its first event arrived. */
function openStream(baseUrl, key, id) {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseUrl}/api/v3/predictions/${id}/events`,
      { headers: { authorization: `Bearer ${key}` }, agent: false },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream ${response.statusCode}`));
        response.once('data', () => resolve({ close: () => request.destroy() }));
        response.on('error', () => undefined);
      },
    );
    request.on('error', () => undefined);
  });
}

/**
 * Deletes the followed tasks, 50 at a time, sending again what was refused
 * with 503 (as its message asks): a long task left running would hold a
 * worker slot for two minutes and stall the scenarios after this one.
 */
async function deleteAll(baseUrl, ids, owners) {
  let left = ids.map((id, i) => ({ id, key: owners[i] }));
  for (let round = 0; left.length && round < 10; round++) {
    if (round) await sleep(500);
    const refused = [];
    for (let i = 0; i < left.length; i += 50)
      await Promise.all(
        left.slice(i, i + 50).map(async (task) => {
          const r = await fetch(`${baseUrl}/api/v3/predictions/${task.id}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${task.key}` },
          });
          await r.arrayBuffer();
          if (r.status !== 200) refused.push(task);
        }),
      );
    left = refused;
  }
  if (left.length) throw new Error(`event streams: ${left.length} followed tasks not deleted`);
}

/** How often the gateway's RSS is read during a CPU window. */
const RSS_SAMPLE_MS = 250;

/**
 * CPU (µs per second) of each process group over `ms`, and the median of the
 * gateway's RSS read every RSS_SAMPLE_MS meanwhile: one reading taken just
 * before or after a collection would move the figure by megabytes.
 */
async function cpuRate(groups, ms, pid) {
  const before = cpuSnapshot(groups);
  const rss = [];
  for (const end = Date.now() + ms; Date.now() < end; await sleep(RSS_SAMPLE_MS))
    rss.push(rssBytes(pid));
  const seconds = ms / 1000;
  const delta = cpuDelta(before, cpuSnapshot(groups));
  return {
    cpu: Object.fromEntries(Object.entries(delta).map(([k, s]) => [k, (s * 1e6) / seconds])),
    rss: agg(rss).median,
  };
}

/**
 * KB per stream from the two medians; null (not measured, the row says n/a)
 * when the RSS fell: a collection between the windows (V8's memory reducer in
 * an idle gateway gives back tens of MB) hid what the streams hold.
 */
export function rssPerStream(before, open, streams) {
  return open < before ? null : r2((open - before) / 1024 / streams);
}

export async function eventStreams({ platform, keys, streams = 1000, idleMs = 10_000 }) {
  const pid = platform.pids.gateway;
  const groups = { gateway: [pid], redis: 'comm:redis-server', postgres: 'comm:postgres' };
  const owners = Array.from({ length: streams }, (_, i) => keys[Math.floor(i / STREAMS_PER_KEY)]);
  const ids = [];
  for (let i = 0; i < streams; i += 50)
    ids.push(
      ...(await Promise.all(
        owners.slice(i, i + 50).map((key) => submitLongTask(platform.baseUrl, key)),
      )),
    );
  await sleep(1000);
  const idle = await cpuRate(groups, idleMs, pid);
  const opened = [];
  for (let i = 0; i < streams; i += 100)
    opened.push(
      ...(await Promise.all(
        ids.slice(i, i + 100).map((id, j) => openStream(platform.baseUrl, owners[i + j], id)),
      )),
    );
  await sleep(2000);
  const open = await cpuRate(groups, idleMs, pid);
  for (const stream of opened) stream.close();
  await deleteAll(platform.baseUrl, ids, owners);
  const perStream = (name) => r2(Math.max(0, open.cpu[name] - idle.cpu[name]) / streams);
  return {
    streams: opened.length,
    rss_kb_per_stream: rssPerStream(idle.rss, open.rss, streams),
    gateway_cpu_us_per_stream_s: perStream('gateway'),
    redis_cpu_us_per_stream_s: perStream('redis'),
    postgres_cpu_us_per_stream_s: perStream('postgres'),
  };
}
