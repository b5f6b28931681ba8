// Runs the matching scripts of the performance floor (tools/bench/floor, a
// package of its own) in the same invocation and returns their JSON results.
// Its dependencies are installed in place from its own lock file, on demand
// (not by the root `npm install`); its build and result copies stay out of git.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FLOOR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'floor');
/** Written after a complete `npm ci`: the hash of the lock file it installed. */
const STAMP = path.join(FLOOR, 'node_modules', '.genhub-floor-lock');

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

/** Installs the floor's dependencies when its lock file changed since the last install. */
function install(log) {
  const lock = createHash('sha256')
    .update(fs.readFileSync(path.join(FLOOR, 'package-lock.json')))
    .digest('hex');
  if (fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === lock) return;
  log('installing the floor dependencies (tools/bench/floor/node_modules, once per lock file)');
  run('npm', ['ci', '--no-audit', '--no-fund'], FLOOR);
  fs.writeFileSync(STAMP, lock);
}

/** Installs (when needed) and builds the floor, then prepares its database. */
export function prepareFloor(log) {
  install(log);
  run('npm', ['run', '-s', 'build'], FLOOR);
  run(process.execPath, ['dist/setup-db.js'], FLOOR);
}

/** Runs one floor script; returns its parsed JSON line. */
export function runFloor(script, args = []) {
  const out = run(process.execPath, [`dist/${script}.js`, ...args], FLOOR);
  const line = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  return JSON.parse(line);
}
