#!/usr/bin/env node
// `npm start [app]`: builds, brings up PostgreSQL and Redis (embedded defaults
// when DATABASE_URL / REDIS_URL are unset), migrates, creates a demo account on
// first start, and runs the four apps as separate processes, as deployed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build, log, resolveEnvironment } from './lib/environment.mjs';
import { APPS, consoleDir, dataDir, entry } from './lib/paths.mjs';
import { firstBusyPort, PORT_VARIABLES, resolvePorts } from './lib/ports.mjs';
import { probeHost, waitUntilReady } from './lib/readiness.mjs';

const only = process.argv[2];
if (only && !APPS.includes(only)) {
  log(`unknown app '${only}'; one of: ${APPS.join(', ')}`);
  process.exit(2);
}
const apps = only ? [only] : APPS;

// Each app its own port (PORT is the gateway's), all checked before anything starts.
const host = process.env.HOST ?? '0.0.0.0';
let ports;
try {
  const all = resolvePorts(process.env);
  ports = Object.fromEntries(apps.map((app) => [app, all[app]]));
} catch (error) {
  log(error.message);
  process.exit(1);
}
const busy = await firstBusyPort(host, ports);
if (busy) {
  log(
    `port ${busy.port} (${busy.app}) is already in use: set ${PORT_VARIABLES[busy.app]} to a free port` +
      ` (PORT is the gateway's; ${Object.values(PORT_VARIABLES).slice(1).join(', ')} default to the next three)`,
  );
  process.exit(1);
}

try {
  // The console is static files the gateway serves at /console.
  build(only ? [only, 'gateway'] : [...APPS, 'console']);
} catch (error) {
  log(error.message);
  process.exit(1);
}
let environment;
try {
  environment = await resolveEnvironment();
} catch (error) {
  log(error.message);
  process.exit(1);
}
const { env, stop } = environment;
env.CONSOLE_DIR ??= only ? undefined : consoleDir;

const migrate = spawnSync(process.execPath, [entry('gateway', 'cli/migrate')], {
  env,
  stdio: 'inherit',
});
if (migrate.status !== 0) {
  log('migrations failed: not starting');
  await stop();
  process.exit(1);
}

// First start: a demo account with a balance and an API key, so a newcomer can curl at once.
// A demo file whose account this database does not hold (a fresh or another
// database) is replaced, so the key printed below always works.
const demoFile = path.join(dataDir, 'demo.json');
if (!only && fs.existsSync(entry('gateway', 'cli/admin')) && !demoAccountExists(demoFile, env)) {
  const demo = spawnSync(process.execPath, [entry('gateway', 'cli/admin'), 'demo', '--json'], {
    env,
    encoding: 'utf8',
  });
  if (demo.status === 0) fs.writeFileSync(demoFile, demo.stdout, { mode: 0o600 });
  else log(`could not create the demo account: ${demo.stderr.trim()}`);
}

const children = new Map();
let stopping = false;
let started = false;
for (const app of apps) {
  const child = spawn(process.execPath, ['--enable-source-maps', entry(app)], {
    env: { ...env, PORT: String(ports[app]) },
    stdio: 'inherit',
  });
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

let exitCode = 0;
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of children.values()) child.kill('SIGTERM');
  if (children.size === 0) void stop().then(() => process.exit(exitCode));
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  await waitUntilReady(host, ports, { stopped: () => stopping });
} catch (error) {
  if (!stopping) {
    log(error.message);
    shutdown(1);
  }
}
if (!stopping) {
  started = true;
  const lines = apps.map((app) => `${app}: http://${probeHost(host)}:${ports[app]}`);
  lines.push(`admin token: ${env.ADMIN_TOKEN}`);
  const base = `http://${probeHost(host)}:${ports.gateway}`;
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

/** Whether the demo file names an account of the database `env` points at. */
function demoAccountExists(file, environment) {
  if (!fs.existsSync(file)) return false;
  let accountId;
  try {
    accountId = JSON.parse(fs.readFileSync(file, 'utf8')).account_id;
  } catch {
    return false;
  }
  if (typeof accountId !== 'string') return false;
  const found = spawnSync(
    process.execPath,
    [entry('gateway', 'cli/admin'), 'get-account', accountId],
    {
      env: environment,
      encoding: 'utf8',
    },
  );
  return found.status === 0;
}
