// Load generators: closed loop (autocannon) and open loop at a fixed rate.
import autocannon from 'autocannon';
import http from 'node:http';

export const SUBMIT_PATH = '/v1/local/simulator/test';
/** duration_ms 0 and no output image: the platform's own work only, as the floor pipeline measures. */
export const SUBMIT_BODY = JSON.stringify({
  prompt: 'a lighthouse on a cliff at dusk, volumetric light, detailed, 35mm photograph, calm sea',
  duration_ms: 0,
  num_outputs: 0,
});

export async function cannon({
  url,
  method = 'POST',
  body,
  connections = 50,
  duration = 10,
  next,
}) {
  const result = await autocannon({
    url,
    method,
    connections,
    duration,
    pipelining: 1,
    headers: body ? { 'content-type': 'application/json' } : {},
    body,
    requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
  });
  return {
    rps: Math.round(result['2xx'] / result.duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const now = () => performance.timeOrigin + performance.now();

/** POST one submit (`body`: the simulator's input as JSON); resolves with status and task id. */
export function submitOnce(agent, baseUrl, key, query = '', body = SUBMIT_BODY) {
  const url = new URL(`${SUBMIT_PATH}${query}`, baseUrl);
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${key}`,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          let id;
          try {
            id = JSON.parse(Buffer.concat(chunks).toString()).id;
          } catch {
            /* a non-JSON answer counts as a failure below */
          }
          resolve({ status: res.statusCode, id });
        });
      },
    );
    req.on('error', () => resolve({ status: -1 }));
    req.end(body);
  });
}

/** How long after the apps are ready a latency window may begin (their start-up is over). */
export const SETTLE_SECONDS = 30;

/**
 * The discarded warm-up before a latency window, in seconds: 2, as the floor's e2e script's, at
 * least one submit per key, and, given when the apps became ready (`readyAt`, ms), until they have
 * been up for SETTLE_SECONDS. The floor pipeline holds every key in memory from its start; the
 * gateway caches a key at its first use (decisions 0011, 0123), so a window that began after 2 s at
 * 210/s over 1,000 keys met 580 of them for the first time, each a read and a `last_used_at`
 * write the floor never pays. And a window a few seconds after start-up measured the start-up:
 * code not yet compiled on the submit and run paths, then the idle apps' first memory-reducer
 * collections about 25 s in (docs/performance.md, "The latency windows wait for start-up to
 * end"). Start-up transients, not the moderate load the window measures.
 */
export const warmUpSeconds = (keys, rate, readyAt = -Infinity) =>
  Math.max(2, keys.length / rate, (readyAt + SETTLE_SECONDS * 1000 - Date.now()) / 1000);

const keepAliveAgent = () => new http.Agent({ keepAlive: true, maxSockets: 128 });

/**
 * Runs `use(agent)` with one keep-alive agent, destroyed afterwards: a warm-up
 * and the window it warms share their connections, as the floor's e2e script
 * does, so the window does not open its own.
 */
export async function withAgent(use) {
  const agent = keepAliveAgent();
  try {
    return await use(agent);
  } finally {
    agent.destroy();
  }
}

/**
 * Sends `rate` submits per second for `seconds`, on schedule whatever the
 * answers do; on `agent`'s connections if given (left open), else on its own.
 */
export async function openLoop({
  baseUrl,
  keys,
  rate,
  seconds,
  query = '',
  body = SUBMIT_BODY,
  agent: shared,
}) {
  const agent = shared ?? keepAliveAgent();
  const total = Math.round(rate * seconds);
  const records = [];
  const pending = [];
  const t0 = now();
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / rate - now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const rec = { sentAt: now() };
    records.push(rec);
    pending.push(
      submitOnce(agent, baseUrl, keys[i % keys.length], query, body).then((r) =>
        Object.assign(rec, r, { doneAt: now() }),
      ),
    );
  }
  await Promise.all(pending);
  if (!shared) agent.destroy();
  return records;
}

export { now };
