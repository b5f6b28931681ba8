#!/usr/bin/env node
// Fault injection (issue 10): a steady stream of simulator tasks with webhooks
// while, in turn, a task-worker and the webhook-dispatcher are SIGKILLed, Redis
// and PostgreSQL are restarted and the gateway is SIGTERMed. At the end every
// accepted task must be terminal, none completed twice, every webhook-bearing
// task delivered at least once, and the ledger audit clean. Bounded in time.
// With --replicas=N (issue 24) N of each app run against the one PostgreSQL and
// Redis, the load spread over the gateways, the kills and restarts spread over
// the replicas; first the throughput of one replica set, then of N, is printed.
//   npm run fault-injection -- [--seconds=40] [--replicas=1]   (--help for more)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { postgresOptions } from '../lib/postgres.mjs';
import { build } from '../start/lib/environment.mjs';
import { parseCommandLine, usageError } from '../lib/command-line.mjs';
import { entry } from '../start/lib/paths.mjs';
import { appProcesses, portOf } from './apps.mjs';
import { faultsFor } from './faults.mjs';
import { privatePostgres, privateRedis } from './services.mjs';
import { measureThroughput } from './throughput.mjs';

const HELP = `usage: npm run fault-injection -- [options]

Builds the four apps and runs them on a private PostgreSQL and Redis (started
and removed by this run) under a steady stream of simulator tasks with webhooks
while, in turn, a task-worker and the webhook-dispatcher are killed, Redis and
PostgreSQL restarted and the gateway stopped. Then every accepted task must be
terminal, none completed twice, every webhook delivered and the ledger audit
clean. Prints the counts as JSON; exit 0 when all hold, 1 when not, 3 when the
run overran its time limit.

options:
  --seconds=S    seconds of load while the faults happen (default 40)
  --replicas=N   1 to 4 of every app on the one PostgreSQL and Redis, the load
                 spread over the gateways and the faults over the replicas; above
                 1, the throughput of one replica set and of N is printed first
                 (default 1)
  -h, --help     print this help`;

const { values } = parseCommandLine({
  name: 'fault-injection',
  usage: HELP,
  options: {
    seconds: { type: 'string', default: '40' },
    replicas: { type: 'string', default: '1' },
  },
});
const LOAD_SECONDS = Number(values.seconds);
const REPLICAS = Number(values.replicas);
if (!(Number.isFinite(LOAD_SECONDS) && LOAD_SECONDS > 0))
  usageError('fault-injection', '--seconds must be a positive number');
if (!(Number.isInteger(REPLICAS) && REPLICAS >= 1 && REPLICAS <= 4))
  usageError('fault-injection', '--replicas must be 1 to 4');
const log = (m) => process.stderr.write(`[fault ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const base = `http://127.0.0.1:${portOf('gateway')}`;
const hardDeadline = setTimeout(
  () => {
    log('hard time limit reached');
    process.exit(3);
  },
  (LOAD_SECONDS + 240 + (REPLICAS > 1 ? 120 : 0)) * 1000,
);

build(['gateway', 'task-worker', 'webhook-dispatcher', 'billing']);
const [postgres, redis] = await Promise.all([privatePostgres(), privateRedis()]);
const env = {
  ...process.env,
  DATABASE_URL: postgres.url,
  // Its own plaintext PostgreSQL: a CA from the caller's environment does not apply.
  DATABASE_TLS_CA: '',
  REDIS_URL: redis.url,
  QUEUE_PREFIX: 'fault',
  ADMIN_TOKEN: 'fault-injection-admin-token',
  API_KEY_PEPPER: 'fault-injection-pepper-0123456789',
  ALLOW_PRIVATE_NETWORK_URLS: 'true',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  SHUTDOWN_GRACE_MS: '5000',
  STORAGE_DIR: `/tmp/genhub-fault-objects-${process.pid}`,
};
const apps = appProcesses(env, log, REPLICAS);
const receiver = { deliveries: new Map() };
const server = http.createServer((req, res) => {
  const id = req.headers['webhook-id'];
  if (id) receiver.deliveries.set(id, (receiver.deliveries.get(id) ?? 0) + 1);
  req.resume();
  req.on('end', () => res.end('ok'));
});
let exitCode = 1;
try {
  if (
    spawnSync(process.execPath, [entry('gateway', 'cli/migrate')], { env, stdio: 'inherit' })
      .status !== 0
  ) {
    throw new Error('migration failed');
  }
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const hook = encodeURIComponent(`http://127.0.0.1:${server.address().port}/hook?source=fault`);
  await apps.startSet(0);

  const admin = { authorization: `Bearer ${env.ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const keys = [];
  const limitedKeyIds = [];
  for (let i = 0; i < 10; i++) {
    const account = await (
      await fetch(`${base}/admin/v1/accounts`, {
        method: 'POST',
        headers: admin,
        body: '{"balance":1000}',
      })
    ).json();
    const key = await (
      await fetch(`${base}/admin/v1/accounts/${account.id}/api-keys`, {
        method: 'POST',
        headers: admin,
        body: '{}',
      })
    ).json();
    keys.push(key.key);
    if (i % 2 === 0) limitedKeyIds.push(key.id);
  }
  // Half the keys carry a daily spend limit (never reached), set before their first use, so
  // their counters live through the faults and the audit checks them (issue 37).
  const limits = new pg.Client(postgresOptions(postgres.url));
  await limits.connect();
  await limits.query(
    `UPDATE accounts.api_keys SET spend_limit_units = 900000000, spend_period = 'day'
      WHERE id = ANY($1::uuid[])`,
    [limitedKeyIds],
  );
  await limits.end();

  const accepted = new Map();
  // Throughput of one replica set, then of all of them (their tasks are checked like the rest).
  const throughput = [];
  if (REPLICAS > 1) {
    const measure = async (sets) => {
      const run = await measureThroughput({
        gateways: apps.gateways(),
        keys,
        hook,
        databaseUrl: postgres.url,
      });
      for (const [id, key] of run.accepted) accepted.set(id, key);
      throughput.push({ replica_sets: sets, ...run.figures });
      log(`throughput with ${sets} replica set(s): ${JSON.stringify(run.figures)}`);
    };
    await measure(1);
    for (let replica = 1; replica < REPLICAS; replica++) await apps.startSet(replica);
    await measure(REPLICAS);
  }

  // The steady stream: ~20 submits/s over every gateway, tasks of 0–1.5 s, one in ten failing,
  // all with a webhook.
  const gateways = apps.gateways();
  let refused = 0;
  let stop = false;
  const load = (async () => {
    for (let i = 0; !stop; i++) {
      const key = keys[i % keys.length];
      const body = {
        prompt: `fault ${i}`,
        duration_ms: (i * 137) % 1500,
        num_outputs: 1,
        ...(i % 10 === 9 ? { fail_code: 5003 } : {}),
      };
      fetch(`${gateways[i % gateways.length]}/v1/local/simulator/test?webhook=${hook}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      })
        .then(async (res) => {
          if (res.status === 200) accepted.set((await res.json()).id, key);
          else refused++;
        })
        .catch(() => refused++);
      await sleep(50);
    }
  })();

  const step = LOAD_SECONDS / 6;
  const faults = faultsFor(apps, redis, postgres, REPLICAS);
  for (const [name, fault] of faults) {
    await sleep(step * 1000);
    log(`${name} (accepted so far: ${accepted.size}, refused: ${refused})`);
    await fault();
  }
  await sleep(step * 1000);
  stop = true;
  await load;
  await sleep(1000);
  log(`load stopped: ${accepted.size} accepted, ${refused} refused or failed in flight`);

  // Every accepted task must turn terminal.
  const pending = new Set(accepted.keys());
  const deadline = Date.now() + 120_000;
  const statuses = new Map();
  while (pending.size && Date.now() < deadline) {
    for (const id of [...pending]) {
      const res = await fetch(`${base}/v1/requests/${id}`, {
        headers: { authorization: `Bearer ${accepted.get(id)}` },
      }).catch(() => undefined);
      if (!res?.ok) continue;
      const body = await res.json();
      if (body.status === 'completed' || body.status === 'failed') {
        statuses.set(id, body.status);
        pending.delete(id);
      }
    }
    if (pending.size) await sleep(500);
  }
  // Deliveries and settlements trail completion a little.
  const db = new pg.Client(postgresOptions(postgres.url));
  await db.connect();
  const settleDeadline = Date.now() + 60_000;
  let open = -1;
  while (Date.now() < settleDeadline) {
    open = (
      await db.query(`SELECT count(*)::int AS n FROM billing.reservations WHERE state = 'open'`)
    ).rows[0].n;
    const undelivered = [...statuses.keys()].filter((id) => !receiver.deliveries.has(id)).length;
    if (open === 0 && undelivered === 0) break;
    await sleep(500);
  }
  const doubleCaptured = (
    await db.query(
      `SELECT count(*)::int AS n FROM (SELECT task_id FROM billing.records WHERE type = 'usage' GROUP BY task_id HAVING count(*) > 1) d`,
    )
  ).rows[0].n;
  const mismatched = (
    await db.query(
      `SELECT count(*)::int AS n FROM tasks.tasks t JOIN billing.reservations r ON r.task_id = t.id
        WHERE (t.status = 'completed' AND r.state <> 'captured') OR (t.status = 'failed' AND r.state <> 'released')`,
    )
  ).rows[0].n;
  // The limited keys' counters, which the audit checks against their reservations.
  const keySpendCounters = (
    await db.query(`SELECT count(*)::int AS n FROM billing.key_spend WHERE used_units > 0`)
  ).rows[0].n;
  await db.end();
  const audit = spawnSync(process.execPath, [entry('gateway', 'cli/admin'), 'audit'], {
    env,
    encoding: 'utf8',
  });

  const counts = {
    accepted: accepted.size,
    refused_or_failed_in_flight: refused,
    terminal: statuses.size,
    completed: [...statuses.values()].filter((s) => s === 'completed').length,
    failed: [...statuses.values()].filter((s) => s === 'failed').length,
    not_terminal: pending.size,
    completed_twice: doubleCaptured,
    ledger_state_mismatches: mismatched,
    open_reservations: open,
    webhook_tasks_without_delivery: [...accepted.keys()].filter(
      (id) => !receiver.deliveries.has(id),
    ).length,
    webhook_deliveries_total: [...receiver.deliveries.values()].reduce((a, b) => a + b, 0),
    audit_exit_code: audit.status,
    limited_keys: limitedKeyIds.length,
    key_spend_counters: keySpendCounters,
    apps_crashed: apps.crashes.length,
    replicas: REPLICAS,
    ...(throughput.length ? { throughput } : {}),
  };
  console.log(JSON.stringify(counts, null, 2));
  const ok =
    counts.accepted > 0 &&
    counts.not_terminal === 0 &&
    counts.completed_twice === 0 &&
    counts.ledger_state_mismatches === 0 &&
    counts.open_reservations === 0 &&
    counts.webhook_tasks_without_delivery === 0 &&
    counts.audit_exit_code === 0 &&
    counts.key_spend_counters > 0 &&
    counts.apps_crashed === 0;
  if (!ok)
    log(
      `FAILED${apps.crashes.length ? `; crashed: ${apps.crashes.join(', ')}` : ''}${audit.status ? `; audit said: ${(audit.stdout + audit.stderr).trim().slice(0, 500)}` : ''}`,
    );
  else
    log(
      'every accepted task is terminal, none completed twice, every webhook delivered, audit clean',
    );
  exitCode = ok ? 0 : 1;
} catch (error) {
  log(`error: ${error.stack ?? error}`);
} finally {
  server.close();
  await apps.stopAll();
  await Promise.allSettled([redis.stop(), postgres.stop()]);
  fs.rmSync(env.STORAGE_DIR, { recursive: true, force: true });
  clearTimeout(hardDeadline);
}
process.exit(exitCode);
