#!/usr/bin/env node
// `nx build console`: the console's static build (Vite) into dist/console, then
// its performance budget, measured and printed: the JavaScript the first page
// loads, gzipped, must stay within 200 KB (issue 22); over it the build fails.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// `--out <dir>`: somewhere else than dist/console (a test's own copy).
const outFlag = process.argv.indexOf('--out');
const out =
  outFlag > 0 ? path.resolve(process.argv[outFlag + 1]) : path.join(root, 'dist', 'console');
export const INITIAL_JS_BUDGET_KB = 200;

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
