#!/usr/bin/env node
// Builds the publishable @genhub/contracts package into dist/contracts:
//   index.js/.d.ts        the browser entry (types, client, error catalogue)
//   server/index.js/.d.ts the DTO classes
//   vendor/errors/        @genhub/errors, inlined (it is not published on its own)
//   vendor/money/         @genhub/money, inlined (currencies, micro-units of the admin DTOs)
//   openapi.json, package.json, README.md
// tsc emits CommonJS + declarations; the @genhub/* aliases are then rewritten
// to relative paths so the package stands alone.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const lib = path.join(root, 'libs/shared/contracts');
const out = path.join(root, 'dist/contracts');
const staging = path.join(out, '.tsc');

const HELP = `usage: node tools/contracts/build-lib.cjs   (nx build contracts)

Builds the publishable @genhub/contracts package into dist/contracts: the browser
entry and the server DTOs (CommonJS + declarations, by tsc), @genhub/errors and
@genhub/money inlined under vendor/, openapi.json, package.json and README.md.

options:
  -h, --help   print this help`;

/** Where each workspace lib of the package lands. */
const placements = {
  'shared/contracts/src': '.',
  'shared/errors/src': 'vendor/errors',
  'shared/money/src': 'vendor/money',
};
const aliases = {
  '@genhub/errors': 'vendor/errors/index',
  '@genhub/money': 'vendor/money/index',
};

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

function build() {
  fs.rmSync(out, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', path.join(lib, 'tsconfig.lib.json')],
    { stdio: 'inherit', cwd: root },
  );

  for (const [from, to] of Object.entries(placements)) {
    const source = path.join(staging, from);
    for (const file of walk(source)) {
      const target = path.join(out, to, path.relative(source, file));
      let text = fs.readFileSync(file, 'utf8');
      for (const [alias, dest] of Object.entries(aliases)) {
        let relative = path.relative(path.dirname(target), path.join(out, dest));
        if (!relative.startsWith('.')) relative = `./${relative}`;
        text = text
          .split(`"${alias}"`)
          .join(`"${relative}"`)
          .split(`'${alias}'`)
          .join(`'${relative}'`);
      }
      if (/(from |require\()['"]@genhub\//.test(text))
        throw new Error(`unresolved @genhub alias in ${file}`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, text);
    }
  }
  fs.rmSync(staging, { recursive: true, force: true });
  for (const name of ['package.json', 'openapi.json', 'README.md']) {
    fs.copyFileSync(path.join(lib, name), path.join(out, name));
  }
  console.log(`built @genhub/contracts → ${path.relative(root, out)}`);
}

import('../lib/command-line.mjs').then(({ parseCommandLine }) => {
  parseCommandLine({ name: 'build-lib', usage: HELP });
  build();
});
