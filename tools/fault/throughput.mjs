// Throughput of the running apps: `count` simulator tasks (no wait inside the
// task, one output, a webhook) submitted `concurrency` at a time over every
// gateway, timed from the first submit until the last is terminal in
// PostgreSQL. What it measures is the platform's own work per task (submit,
// hand-over, run, terminal write, notice, delivery), not a model's.
import pg from 'pg';
import { postgresOptions } from '../lib/postgres.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function measureThroughput({
  gateways,
  keys,
  hook,
  databaseUrl,
  count = 400,
  concurrency = 32,
}) {
  const accepted = new Map();
  let next = 0;
  let refused = 0;
  const started = Date.now();
  const client = async () => {
    while (next < count) {
      const i = next++;
      const key = keys[i % keys.length];
      const res = await fetch(
        `${gateways[i % gateways.length]}/v1/local/simulator/test?webhook=${hook}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: `throughput ${i}`, duration_ms: 0 }),
          signal: AbortSignal.timeout(10_000),
        },
      ).catch(() => undefined);
      if (res?.status === 200) accepted.set((await res.json()).id, key);
      else refused++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const submittedMs = Date.now() - started;
  const ids = [...accepted.keys()];
  const deadline = Date.now() + 60_000;
  const db = new pg.Client(postgresOptions(databaseUrl));
  await db.connect();
  for (;;) {
    const { n } = (
      await db.query(
        `SELECT count(*)::int AS n FROM tasks.tasks WHERE id = ANY($1::uuid[]) AND status IN ('completed', 'failed')`,
        [ids],
      )
    ).rows[0];
    if (n === ids.length || Date.now() > deadline) break;
    await sleep(50);
  }
  const ms = Date.now() - started;
  await db.end();
  return {
    accepted,
    figures: {
      tasks: ids.length,
      refused,
      submits_per_s: Math.round((ids.length / submittedMs) * 1000),
      terminal_per_s: Math.round((ids.length / ms) * 1000),
      seconds: Number((ms / 1000).toFixed(1)),
    },
  };
}
