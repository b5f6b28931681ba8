#!/usr/bin/env node
// Bundles the browser entry of the contracts lib (src/index.ts) with esbuild
// for the browser, minified, and prints what went in as JSON:
// { bytes, inputs: [paths], text: <bundle> with --text }; `--out <file>` also
// writes the bundle there (an ES module a test page imports).
// Runs outside Jest because esbuild refuses Jest's sandboxed realm.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '../..');

async function main() {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['libs/shared/contracts/src/index.ts'],
    tsconfig: 'libs/shared/contracts/tsconfig.json',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0].text;
  const out = process.argv.indexOf('--out');
  if (out > 0) fs.writeFileSync(process.argv[out + 1], text);
  console.log(
    JSON.stringify({
      bytes: Buffer.byteLength(text),
      inputs: Object.keys(result.metafile.inputs),
      ...(process.argv.includes('--text') ? { text } : {}),
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
