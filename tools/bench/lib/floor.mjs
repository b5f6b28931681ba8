// Runs the matching ../shared/perf-floor scripts in the same invocation, from a
// private copy (shared/ is read-only), and returns their JSON results.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../../start/lib/paths.mjs';

const SOURCE = path.resolve(root, '..', 'shared', 'perf-floor');
const COPY = path.join(os.tmpdir(), 'genhub-perf-floor');

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}`);
  return r.stdout;
}

export function prepareFloor(log) {
  if (!fs.existsSync(SOURCE)) throw new Error(`no perf-floor at ${SOURCE}`);
  fs.cpSync(SOURCE, COPY, {
    recursive: true,
    filter: (src) => !src.includes('node_modules') && !src.includes('/results'),
  });
  for (const f of fs.readdirSync(COPY, { recursive: true }))
    fs.chmodSync(path.join(COPY, f), 0o755);
  fs.chmodSync(COPY, 0o755);
  if (!fs.existsSync(path.join(COPY, 'node_modules'))) {
    log('installing perf-floor dependencies (once)');
    run('npm', ['install', '--no-audit', '--no-fund'], COPY);
  }
  run('npm', ['run', '-s', 'build'], COPY);
  run(process.execPath, ['dist/setup-db.js'], COPY);
}

/** Runs one floor script; returns its parsed JSON line. */
export function runFloor(script, args = []) {
  const out = run(process.execPath, [`dist/${script}.js`, ...args], COPY);
  const line = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  return JSON.parse(line);
}
