#!/usr/bin/env node
// `node tools/check-lockfile.mjs [package-lock.json …]`: fails when a lock file
// would not install on every platform. npm drops other platforms' optional
// packages (native binaries such as @swc/core-darwin-arm64) when it writes a
// lock over an existing node_modules; `npm ci` on macOS or Windows then gives a
// tree whose native modules cannot load. Every optional dependency a locked
// package declares must therefore be locked too, as node would resolve it.
import fs from 'node:fs';
import path from 'node:path';
import { parseCommandLine } from './lib/command-line.mjs';

const HELP = `usage: node tools/check-lockfile.mjs [lock file …]

Checks that every optional dependency a locked package declares (the native
binaries of every platform) is itself in the lock file. Default: package-lock.json.
Exit 0 when complete, 1 when something is missing (each listed), 2 on bad usage.`;

/** The optional dependencies of a lock's packages that the lock does not hold. */
export function missingOptionalPackages(lock) {
  const packages = lock.packages ?? {};
  const missing = [];
  for (const [location, entry] of Object.entries(packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      if (!lookUp(packages, location, name))
        missing.push(`${name} (optional dependency of ${location || 'the root'})`);
    }
  }
  return missing;
}

/** The location of the package enclosing `location` ('' for the root and workspaces). */
function enclosing(location) {
  const at = location.lastIndexOf('node_modules/');
  return at <= 0 ? '' : location.slice(0, at - 1);
}

/** Node's resolution over lock locations: `<from>/node_modules/<name>`, then each enclosing package. */
function lookUp(packages, from, name) {
  for (let dir = from; ; dir = enclosing(dir)) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
  }
}

function main() {
  const { positionals } = parseCommandLine({
    name: 'check-lockfile',
    usage: HELP,
    allowPositionals: true,
  });
  const files = positionals.length ? positionals : ['package-lock.json'];
  let failed = false;
  for (const file of files) {
    const missing = missingOptionalPackages(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (missing.length) {
      failed = true;
      process.stderr.write(
        `${file} misses ${missing.length} optional package(s) another platform needs:\n` +
          missing.map((m) => `  ${m}\n`).join('') +
          'Regenerate it from an empty tree: rm -rf node_modules package-lock.json && npm install\n',
      );
    } else process.stdout.write(`${file}: every platform's optional packages are locked\n`);
  }
  process.exit(failed ? 1 : 0);
}

main();
