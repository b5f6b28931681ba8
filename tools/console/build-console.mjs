#!/usr/bin/env node
// `nx build console`: the console's static build (Vite) into dist/console, then
// its performance budget, measured and printed: the JavaScript the first page
// loads, gzipped, must stay within 200 KB (issue 22); over it the build fails.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseCommandLine } from '../lib/command-line.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const INITIAL_JS_BUDGET_KB = 200;

const HELP = `usage: node tools/console/build-console.mjs [options]   (nx build console)

Builds the web console (apps/console, Vite) into dist/console, then measures the
JavaScript its first page loads, gzipped: over ${INITIAL_JS_BUDGET_KB} KB the build fails (exit 1).

options:
  --out DIR    build into DIR instead of dist/console (a test's own copy)
  -h, --help   print this help`;

const { values } = parseCommandLine({
  name: 'build-console',
  usage: HELP,
  options: { out: { type: 'string' } },
});
const out =
  values.out === undefined ? path.join(root, 'dist', 'console') : path.resolve(values.out);
const { build } = await import('vite');

await build({
  configFile: path.join(root, 'apps', 'console', 'vite.config.mts'),
  logLevel: 'warn',
  build: { outDir: out, emptyOutDir: true },
});

// The scripts index.html loads (and the modules they preload) are the initial JavaScript.
const html = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const sizes = initial.map((file) => {
  const bytes = fs.readFileSync(path.join(out, file));
  return { file, gzipKb: gzipSync(bytes, { level: 9 }).length / 1024 };
});
const total = sizes.reduce((sum, s) => sum + s.gzipKb, 0);
for (const s of sizes) console.log(`console: ${s.file} ${s.gzipKb.toFixed(1)} KB gzipped`);
console.log(
  `console: initial JavaScript ${total.toFixed(1)} KB gzipped (budget ${INITIAL_JS_BUDGET_KB} KB)`,
);
if (!initial.length || total > INITIAL_JS_BUDGET_KB) {
  console.error(
    initial.length ? 'console: over the initial JavaScript budget' : 'console: no script found',
  );
  process.exit(1);
}
