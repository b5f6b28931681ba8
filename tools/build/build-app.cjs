#!/usr/bin/env node
// Builds one app for production: compiles the app's sources and every lib to
// dist/<app>/ with SWC, rewriting the @genhub/* path aliases to relative paths.
// Type checking is the separate `typecheck` target (tsc --noEmit); SWC only emits.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');
const { swcOptions, workspaceRoot } = require('./swc-options.cjs');

const app = process.argv[2];
if (!app) {
  console.error('usage: build-app.cjs <app>');
  process.exit(2);
}
// An optional second argument builds elsewhere (tests that must not race other builds of dist/<app>).
const outRoot = process.argv[3]
  ? path.resolve(process.argv[3])
  : path.join(workspaceRoot, 'dist', app);
const sourceRoots = [path.join('apps', app, 'src'), 'libs'];
const skip = /(\.spec\.ts|\.int-spec\.ts|\.d\.ts)$/;

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'test') continue;
      yield* walk(full);
    } else yield full;
  }
}

fs.rmSync(outRoot, { recursive: true, force: true });
const options = swcOptions({ rewritePaths: true });
let count = 0;
for (const root of sourceRoots) {
  for (const file of walk(path.join(workspaceRoot, root))) {
    const rel = path.relative(workspaceRoot, file);
    const out = path.join(outRoot, rel);
    if (file.endsWith('.ts') && !skip.test(file)) {
      const { code, map } = swc.transformFileSync(file, { ...options, filename: file });
      const jsOut = out.replace(/\.ts$/, '.js');
      fs.mkdirSync(path.dirname(jsOut), { recursive: true });
      fs.writeFileSync(jsOut, `${code}\n//# sourceMappingURL=${path.basename(jsOut)}.map\n`);
      if (map) fs.writeFileSync(`${jsOut}.map`, map);
      count++;
    } else if (/\.(json|sql|html)$/.test(file) && !file.endsWith('project.json')) {
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.copyFileSync(file, out);
    }
  }
}
console.log(`built ${app}: ${count} files → ${path.relative(workspaceRoot, outRoot)}`);
