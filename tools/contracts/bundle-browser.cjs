#!/usr/bin/env node
// Bundles the browser entry of the contracts lib (src/index.ts) with esbuild
// for the browser, minified, and prints what went in as JSON:
// { bytes, inputs: [paths], text: <bundle> with --text }; `--out <file>` also
// writes the bundle there (an ES module a test page imports).
// Runs outside Jest because esbuild refuses Jest's sandboxed realm.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');

const HELP = `usage: node tools/contracts/bundle-browser.cjs [options]

Bundles the browser entry of the contracts lib (libs/shared/contracts/src/index.ts)
with esbuild for the browser, minified, and prints {"bytes", "inputs"} as JSON.

options:
  --text       print the bundle too, as "text"
  --out FILE   also write the bundle to FILE (an ES module a test page imports)
  -h, --help   print this help`;

async function main() {
  const { parseCommandLine } = await import('../lib/command-line.mjs');
  const { values } = parseCommandLine({
    name: 'bundle-browser',
    usage: HELP,
    options: { text: { type: 'boolean', default: false }, out: { type: 'string' } },
  });
  const esbuild = require('esbuild');
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
  if (values.out !== undefined) fs.writeFileSync(values.out, text);
  console.log(
    JSON.stringify({
      bytes: Buffer.byteLength(text),
      inputs: Object.keys(result.metafile.inputs),
      ...(values.text ? { text } : {}),
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
