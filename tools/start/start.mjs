#!/usr/bin/env node
// `npm start [app]`: builds, brings up PostgreSQL and Redis (embedded defaults
// when DATABASE_URL / REDIS_URL are unset), migrates, checks that the queue
// prefix is this installation's, creates a demo account on first start, and
// runs the four apps as separate processes, as deployed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseCommandLine, usageError } from '../lib/command-line.mjs';
import { build, log, resolveEnvironment } from './lib/environment.mjs';
import { prettyLogs, wantsPrettyLogs } from './lib/log-format.mjs';
import { APPS, consoleDir, dataDir, entry } from './lib/paths.mjs';
import { firstBusyPort, PORT_VARIABLES, resolvePorts } from './lib/ports.mjs';
import { probeHost, waitUntilReady } from './lib/readiness.mjs';

const USAGE = `
usage: npm start [-- <app>]

Builds the platform, starts what it needs and runs it: the four apps (or only
<app>: ${APPS.join(', ')}) as separate processes, with the web console.

With DATABASE_URL unset, an embedded PostgreSQL keeps its data in .data/; with
REDIS_URL (and the Sentinel and Cluster settings) unset, the Redis at
127.0.0.1:6379 is used, else a redis-server from the PATH is started. Every
other setting is an environment variable (docs/operations.md), for example:

  PORT=3100 npm start             the gateway on 3100, the other apps on 3101-3103
  PUBLIC_BASE_URL=https://… npm start
                                  the address links in answers and file URLs start with
  LOG_FORMAT=json npm start       JSON log lines in a terminal too (the default
                                  where stdout is not a terminal)

Options:
  -h, --help                      this text
`;

const { positionals } = parseCommandLine({ name: 'start', usage: USAGE, allowPositionals: true });
if (positionals.length > 1) usageError('start', 'at most one app');
const only = positionals[0];
if (only && !APPS.includes(only))
  usageError('start', `unknown app '${only}'; one of: ${APPS.join(', ')}`);
const apps = only ? [only] : APPS;

/** Stops what the launcher started (embedded PostgreSQL, Redis) when start-up fails. */
let stopServices = async () => {};

try {
  await start();
} catch (error) {
  // Every failure of the launcher itself is one line, never a stack trace.
  log(describe(error));
  await stopServices();
  process.exit(1);
}

async function start() {
  // Each app its own port (PORT is the gateway's), all checked before anything starts.
  const host = process.env.HOST ?? '0.0.0.0';
  const allPorts = resolvePorts(process.env);
  const ports = Object.fromEntries(apps.map((app) => [app, allPorts[app]]));
  const busy = await firstBusyPort(host, ports);
  if (busy)
    throw new Error(
      `port ${busy.port} (${busy.app}) is already in use: set ${PORT_VARIABLES[busy.app]} to a free port` +
        ` (PORT is the gateway's; ${Object.values(PORT_VARIABLES).slice(1).join(', ')} default to the next three)`,
    );

  // The console is static files the gateway serves at /console.
  build(only ? [only, 'gateway'] : [...APPS, 'console']);
  const { env, stop } = await resolveEnvironment();
  stopServices = stop;
  env.CONSOLE_DIR ??= only ? undefined : consoleDir;
  // Every address the platform hands out (file URLs, links) starts here: the gateway as started.
  env.PUBLIC_BASE_URL ??= `http://${probeHost(host)}:${allPorts.gateway}`;

  const migrate = spawnSync(process.execPath, [entry('gateway', 'cli/migrate')], {
    env,
    stdio: 'inherit',
  });
  if (migrate.status !== 0) throw new Error('migrations failed: not starting');
  // One line, before any app starts, when another installation's database owns QUEUE_PREFIX.
  const owner = admin(env, ['queues:owner', '--json']);
  if (owner.status !== 0)
    throw new Error(owner.stderr.trim().replace(/^admin: queues:owner: /, ''));

  // First start: a demo account with a balance and an API key, so a newcomer can curl at once.
  // A demo file whose account this database does not hold (a fresh or another
  // database) is replaced, so the key printed below always works.
  const demoFile = path.join(dataDir, 'demo.json');
  if (!only && !demoAccountExists(demoFile, env)) {
    const demo = admin(env, ['demo', '--json']);
    if (demo.status === 0) fs.writeFileSync(demoFile, demo.stdout, { mode: 0o600 });
    else log(`could not create the demo account: ${demo.stderr.trim()}`);
  }

  run(env, host, ports, stop, () => printReady(env, host, ports, demoFile));
}

/** Starts the apps; stops them all when one exits, and the services with the last. */
function run(env, host, ports, stop, onReady) {
  const pretty = wantsPrettyLogs(env);
  const children = new Map();
  let stopping = false;
  let started = false;
  let exitCode = 0;
  const shutdown = (code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const child of children.values()) child.kill('SIGTERM');
    if (children.size === 0) void stop().then(() => process.exit(exitCode));
  };
  for (const app of apps) {
    const child = spawn(process.execPath, ['--enable-source-maps', entry(app)], {
      env: { ...env, PORT: String(ports[app]) },
      stdio: ['inherit', pretty ? 'pipe' : 'inherit', 'inherit'],
    });
    if (pretty) child.stdout.pipe(prettyLogs());
    children.set(app, child);
    child.on('exit', (code, signal) => {
      children.delete(app);
      if (!stopping) {
        // An exit during start-up is a failed start, whatever its code.
        log(
          `${app} exited (${signal ?? code})${started ? '' : ' during start-up'}; stopping the others`,
        );
        shutdown(started ? (code ?? 1) : code || 1);
      } else if (children.size === 0) void stop().then(() => process.exit(exitCode));
    });
  }
  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));

  waitUntilReady(host, ports, { stopped: () => stopping }).then(
    () => {
      if (stopping) return;
      started = true;
      onReady();
    },
    (error) => {
      if (stopping) return;
      log(error.message);
      shutdown(1);
    },
  );
}

function printReady(env, host, ports, demoFile) {
  const lines = apps.map((app) => `${app}: http://${probeHost(host)}:${ports[app]}`);
  lines.push(`admin token: ${env.ADMIN_TOKEN}`);
  const base = env.PUBLIC_BASE_URL.replace(/\/+$/, '');
  if (env.CONSOLE_DIR) {
    lines.unshift(`console: ${base}/console/`);
    lines.push(`operator's pages: ${base}/console/#operator (sign in with the admin token)`);
  }
  if (ports.gateway && fs.existsSync(demoFile)) {
    try {
      const demo = JSON.parse(fs.readFileSync(demoFile, 'utf8'));
      lines.push(
        `demo account ${demo.account_id} (balance ${demo.balance} ${demo.currency}), API key: ${demo.key}`,
        `try: curl -s -X POST '${base}/v1/local/simulator/test?sync=true' -H 'Authorization: Bearer ${demo.key}' -H 'Content-Type: application/json' -d '{"prompt":"hello"}'`,
      );
    } catch {
      /* a half-written demo file only costs the hint */
    }
  }
  log(`ready\n  ${lines.join('\n  ')}`);
}

/** Runs the gateway's admin CLI with `args`; its output as text. */
function admin(env, args) {
  return spawnSync(process.execPath, [entry('gateway', 'cli/admin'), ...args], {
    env,
    encoding: 'utf8',
  });
}

/** Whether the demo file names an account of the database `env` points at. */
function demoAccountExists(file, env) {
  if (!fs.existsSync(file)) return false;
  let accountId;
  try {
    accountId = JSON.parse(fs.readFileSync(file, 'utf8')).account_id;
  } catch {
    return false;
  }
  return typeof accountId === 'string' && admin(env, ['get-account', accountId]).status === 0;
}

/** One line for a failure: what failed and, for a file-system refusal, where. */
function describe(error) {
  if (!(error instanceof Error)) return String(error);
  if (error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'EROFS')
    return `cannot write ${error.path ?? 'a file'} (${error.code}): npm start keeps its data in ${dataDir}; make it writable for ${process.env.USER ?? 'this user'}, or run from a clone you own`;
  return error.message.split('\n')[0];
}
