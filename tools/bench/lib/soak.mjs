// The soak (issue 38): `minutes` at a fixed rate on a platform of its own —
// every app's RSS sampled, submit p99 per minute, PostgreSQL's table and index
// bytes per task, and what is left behind once the last task has finished.
import pg from 'pg';
import { postgresOptions } from '../../lib/postgres.mjs';
import { openLoop } from './load.mjs';
import { checkpoint, seedAccounts, withPlatform } from './platform.mjs';
import { prefixKeys } from './prefix-keys.mjs';
import { rssBytes } from './proc.mjs';
import { waitQuiet } from './quiet.mjs';
import { agg, latency, r2 } from './stats.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The scenario's parameters (docs/performance.md states them; the results JSON records them). */
export const SOAK = {
  /** Minutes of load in a full run (`--soak-minutes`). */
  minutes: 20,
  /** RSS sampling period (s). */
  rss_every_s: 10,
  /** After the last submit, how long the platform has to finish and tidy up (s). */
  settle_s: 30,
};

/** Mean of the samples taken in [from, to) minutes. */
const meanIn = (samples, from, to) => {
  const inside = samples.filter((s) => s.minute >= from && s.minute < to).map((s) => s.bytes);
  return inside.length ? inside.reduce((a, b) => a + b, 0) / inside.length : NaN;
};

/** Table and index bytes of every table of the platform's schemas, and the leftovers. */
async function databaseFigures(databaseUrl) {
  const client = new pg.Client(postgresOptions(databaseUrl, process.env.DATABASE_TLS_CA));
  await client.connect();
  try {
    const sizes = await client.query(
      `SELECT n.nspname || '.' || c.relname AS name, pg_table_size(c.oid)::bigint AS table_bytes,
              pg_indexes_size(c.oid)::bigint AS index_bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND n.nspname IN ('accounts', 'billing', 'tasks', 'webhooks')
        ORDER BY 1`,
    );
    const count = async (sql) => Number((await client.query(sql)).rows[0].n);
    return {
      tasks: await count('SELECT count(*) AS n FROM tasks.tasks'),
      outbox_rows: await count('SELECT count(*) AS n FROM tasks.outbox'),
      open_reservations: await count(
        "SELECT count(*) AS n FROM billing.reservations WHERE state = 'open'",
      ),
      sizes: sizes.rows.map((r) => ({
        name: r.name,
        table_bytes: Number(r.table_bytes),
        index_bytes: Number(r.index_bytes),
      })),
    };
  } finally {
    await client.end();
  }
}

/**
 * Seeds, warms up (2 s, then waits for those tasks), notes the prefix's Redis
 * keys, then `minutes` of one-minute open loops at `rate` back to back, RSS
 * sampled all along; then waits for every terminal notice and `settle_s`, and
 * reads the database and the prefix again (new keys without a time to live
 * count as left behind). RSS drift: the last quarter's mean
 * ÷ the second quarter's (minutes 15–20 ÷ 5–10 in a 20-minute soak); p99
 * drift: the median per-minute p99 of the last quarter ÷ the second's.
 */
export async function soak({ log, nodeArgs, rate, minutes, accounts }) {
  return withPlatform({ label: 'soak', nodeArgs }, async ({ platform, env, notices }) => {
    const keys = await seedAccounts(platform.baseUrl, env.ADMIN_TOKEN, accounts);
    await checkpoint();
    await waitQuiet(log);
    const warm = await openLoop({ baseUrl: platform.baseUrl, keys, rate, seconds: 2 });
    await notices.waitFor(warm.filter((r) => r.id).map((r) => r.id));
    const keysAtStart = new Set((await prefixKeys(env.REDIS_URL, env.QUEUE_PREFIX)).sizes.keys());
    const start = Date.now();
    const rss = [];
    const sample = () => {
      const minute = (Date.now() - start) / 60_000;
      for (const [app, pid] of Object.entries(platform.pids))
        rss.push({ app, minute, bytes: rssBytes(pid) });
    };
    sample();
    const sampler = setInterval(sample, SOAK.rss_every_s * 1000);
    // Each minute is summed up as soon as its tasks have their notices, and its
    // records and notices are let go: kept for the whole soak, hundreds of
    // thousands of them made the load generator's own collections pause it
    // for hundreds of ms late in the run, which read as the platform's p99.
    const minutesP99 = [];
    let summing = Promise.resolve();
    let unfinished = 0;
    const sumUp = (records) => {
      const ok = records.filter((r) => r.status === 200 && r.id);
      const ids = ok.map((r) => r.id);
      summing = summing.then(async () => {
        await notices.waitFor(ids);
        const completed = ok.filter((r) => notices.seen.has(r.id));
        unfinished += ok.length - completed.length;
        minutesP99.push({
          submit_ms_p99: latency(ok.map((r) => r.doneAt - r.sentAt)).p99,
          submit_to_completed_ms_p99: latency(
            completed.map((r) => notices.seen.get(r.id) - r.sentAt),
          ).p99,
          non200: records.length - ok.length,
        });
        for (const id of ids) notices.seen.delete(id);
      });
    };
    try {
      for (let minute = 1; minute <= minutes; minute++) {
        const records = await openLoop({ baseUrl: platform.baseUrl, keys, rate, seconds: 60 });
        const ok = records.filter((r) => r.status === 200);
        log(
          `soak: minute ${minute}/${minutes}, submit p99 ${latency(ok.map((r) => r.doneAt - r.sentAt)).p99} ms`,
        );
        sumUp(records);
      }
    } finally {
      clearInterval(sampler);
    }
    await summing;
    await sleep(SOAK.settle_s * 1000);
    const db = await databaseFigures(env.DATABASE_URL);
    // Keys with a time to live (locks of periodic jobs) are not left behind: they expire.
    const atEnd = await prefixKeys(env.REDIS_URL, env.QUEUE_PREFIX);
    const keysLeft = [...atEnd.sizes.keys()].filter(
      (k) => !keysAtStart.has(k) && !atEnd.expiring.has(k),
    );
    const quarter = minutes / 4;
    const apps = Object.keys(platform.pids);
    const rssDrift = Object.fromEntries(
      apps.map((app) => {
        const mine = rss.filter((s) => s.app === app);
        return [app, r2(meanIn(mine, 3 * quarter, minutes) / meanIn(mine, quarter, 2 * quarter))];
      }),
    );
    const quarterMedian = (from, to) =>
      agg(minutesP99.slice(Math.floor(from), Math.ceil(to)).map((m) => m.submit_ms_p99)).median;
    const tasks = Math.max(1, db.tasks);
    return {
      rate,
      minutes,
      rss_mb_last: Object.fromEntries(
        apps.map((app) => [
          app,
          r2(
            meanIn(
              rss.filter((s) => s.app === app),
              3 * quarter,
              minutes,
            ) /
              2 ** 20,
          ),
        ]),
      ),
      rss_drift: rssDrift,
      rss_drift_max: Math.max(...Object.values(rssDrift)),
      per_minute: minutesP99,
      submit_p99_drift: r2(
        quarterMedian(3 * quarter, minutes) / quarterMedian(quarter, 2 * quarter),
      ),
      unfinished,
      tasks: db.tasks,
      bytes_per_task: Object.fromEntries(
        db.sizes.map((s) => [
          s.name,
          { table: r2(s.table_bytes / tasks), index: r2(s.index_bytes / tasks) },
        ]),
      ),
      bytes_per_task_total: r2(
        db.sizes.reduce((a, s) => a + s.table_bytes + s.index_bytes, 0) / tasks,
      ),
      outbox_rows: db.outbox_rows,
      open_reservations: db.open_reservations,
      redis_keys_at_start: keysAtStart.size,
      redis_keys_left: keysLeft.length,
      redis_keys_left_names: keysLeft.slice(0, 20),
    };
  });
}
