#!/usr/bin/env node
// Seeds one account with a million (or --tasks N) finished tasks in seconds,
// then, with --measure, times task-history pages at several depths exactly as
// the gateway runs them (ListTasksUseCase on PostgreSQL, no HTTP).
//   node tools/seed-tasks/seed-tasks.cjs [options]   (--help lists them)
const { randomUUID } = require('node:crypto');
const { Client } = require('pg');

const HELP = `usage: node tools/seed-tasks/seed-tasks.cjs [options]

Seeds one account with finished tasks in seconds (one in ten failed, a third
with an image model), on a database the gateway's migrations have created; with
--measure, then times task-history pages at several depths as the gateway runs
them (ListTasksUseCase on PostgreSQL, no HTTP).

options:
  --tasks N            tasks to write, at least 100 (default 1000000)
  --days N             days the tasks are spread over, ending now (default 365)
  --account UUID       the account the tasks belong to (default: a new id)
  --measure            time task-history pages on the seeded account afterwards
  --database-url URL   the database (default: the DATABASE_URL environment variable)
  -h, --help           print this help`;

/** The options, or the help / one line and exit 2 (tools/lib/command-line.mjs). */
async function commandLine() {
  const { parseCommandLine, usageError } = await import('../lib/command-line.mjs');
  const { values } = parseCommandLine({
    name: 'seed-tasks',
    usage: HELP,
    options: {
      tasks: { type: 'string', default: '1000000' },
      days: { type: 'string', default: '365' },
      account: { type: 'string' },
      measure: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
    },
  });
  const count = Number(values.tasks);
  if (!Number.isInteger(count) || count < 100)
    usageError('seed-tasks', '--tasks must be an integer ≥ 100');
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  if (!databaseUrl) usageError('seed-tasks', 'set DATABASE_URL or pass --database-url');
  return { ...values, count, databaseUrl };
}

/** Inserts `count` tasks spread over `days`, in batches of 100,000 (one statement each). */
async function seed(client, accountId, count, days) {
  const batch = 100_000;
  for (let from = 0; from < count; from += batch) {
    const n = Math.min(batch, count - from);
    await client.query(
      `INSERT INTO tasks.tasks (account_id, model, channel, category, status, input, price_units,
                                code, error, outputs, timings, time_limit_ms, created_at, finished_at)
       SELECT $1, CASE WHEN i % 3 = 0 THEN 'local/image/text-to-image' ELSE 'local/simulator/test' END,
              'stable', 'text-to-image',
              CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'completed' END,
              jsonb_build_object('prompt', 'seeded task ' || i), 1000,
              CASE WHEN i % 10 = 0 THEN 1200 ELSE 0 END,
              CASE WHEN i % 10 = 0 THEN 'Invalid input parameters' END,
              CASE WHEN i % 10 = 0 THEN NULL ELSE '["https://cdn.example/x.png"]'::jsonb END,
              '{"queue_wait":1,"worker_init":1,"api_call":40,"save":2,"run_overhead":1,"total":45}'::jsonb,
              600000,
              now() - make_interval(secs => ($4::float8 * 86400) * (1 - i::float8 / $5)),
              now() - make_interval(secs => ($4::float8 * 86400) * (1 - i::float8 / $5))
         FROM generate_series($2::int, $3::int) AS i`,
      [accountId, from, from + n - 1, days, count],
    );
  }
  await client.query('ANALYZE tasks.tasks');
}

async function timed(label, runs, fn) {
  await fn(); // warm-up
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const p = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(2);
  console.log(`  ${label.padEnd(48)} median ${p(0.5)} ms   p95 ${p(0.95)} ms   (${runs} runs)`);
}

async function measure(client, databaseUrl, accountId, count) {
  require('../build/register-ts.cjs');
  require('reflect-metadata');
  const { DataSource } = require('typeorm');
  const { dataSourceOptions, encodeKeysetCursor } = require('@genhub/database');
  const { TaskHistoryRepository } = require('@genhub/tasks-data-access');
  const { ListTasksUseCase } = require('@genhub/tasks-feature');
  const dataSource = new DataSource(
    dataSourceOptions({ url: databaseUrl, tlsCa: process.env.DATABASE_TLS_CA, entities: [] }),
  );
  await dataSource.initialize();
  try {
    const list = new ListTasksUseCase(new TaskHistoryRepository(dataSource));
    /** The cursor of the task at `depth` (newest first), as a previous page would give it. */
    const cursorAt = async (depth) => {
      const { rows } = await client.query(
        `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
           FROM tasks.tasks WHERE account_id = $1 AND deleted_at IS NULL
          ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
        [accountId, depth],
      );
      return encodeKeysetCursor({ createdAt: rows[0].at, id: rows[0].id });
    };
    console.log('latency (use-case + PostgreSQL, no HTTP):');
    await timed('page 1 (limit 20)', 50, () => list.execute({ accountId, query: {} }));
    for (const depth of [Math.floor(count / 2), count - 21]) {
      const cursor = await cursorAt(depth);
      await timed(`page at depth ${depth.toLocaleString('en')} (limit 20)`, 50, () =>
        list.execute({ accountId, query: { cursor } }),
      );
    }
    const deep = await cursorAt(Math.floor(count / 2));
    await timed('page at half depth (limit 100, include=input)', 50, () =>
      list.execute({ accountId, query: { cursor: deep, limit: 100, include: 'input' } }),
    );
    await timed('page at half depth, status=failed', 50, () =>
      list.execute({ accountId, query: { cursor: deep, status: 'failed' } }),
    );
    await timed('page at half depth, model=local/image/', 50, () =>
      list.execute({ accountId, query: { cursor: deep, model: 'local/image/' } }),
    );
  } finally {
    await dataSource.destroy();
  }
}

async function main() {
  const options = await commandLine();
  const { count, databaseUrl } = options;
  const accountId = options.account ?? randomUUID();
  require('../build/register-ts.cjs');
  // DATABASE_URL's sslmode and DATABASE_TLS_CA, as the apps read them (decision 0138).
  const { postgresConnection } = require('@genhub/config');
  const client = new Client(postgresConnection(databaseUrl, process.env.DATABASE_TLS_CA));
  await client.connect();
  try {
    const started = Date.now();
    await seed(client, accountId, count, Number(options.days));
    console.log(
      `seeded account ${accountId}: ${count} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    if (options.measure) await measure(client, databaseUrl, accountId, count);
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  process.stderr.write(`seed-tasks: ${error.message}\n`);
  process.exit(1);
});
