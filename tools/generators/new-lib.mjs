#!/usr/bin/env node
// Creates a lib in one go: project.json (tags, lint/typecheck/test targets),
// tsconfig.json, jest.config.cjs, src/index.ts, README.md, and its
// @genhub/<name> alias in tsconfig.base.json.
//   node tools/generators/new-lib.mjs <dir under libs/> <alias name> --scope <s> --type <t> ["purpose"]
import fs from 'node:fs';
import path from 'node:path';
import { parseCommandLine, usageError } from '../lib/command-line.mjs';

const scopes = [
  'shared',
  'testing',
  'platform',
  'accounts',
  'tasks',
  'billing',
  'webhooks',
  'providers',
];
const types = ['feature', 'data-access', 'adapter', 'contracts', 'util', 'testing'];
const HELP = `usage: node tools/generators/new-lib.mjs <dir> <name> --scope <scope> --type <type> ["purpose"]

Creates libs/<dir> with project.json (tags, lint/typecheck/test targets),
tsconfig.json, jest.config.cjs, src/index.ts and README.md ("purpose" under its
title), and adds the alias @genhub/<name> to tsconfig.base.json. Run it from the
repository root.

options:
  --scope S    ${scopes.join(', ')}
  --type T     ${types.join(', ')}
  -h, --help   print this help`;

const { values, positionals } = parseCommandLine({
  name: 'new-lib',
  usage: HELP,
  allowPositionals: true,
  options: { scope: { type: 'string' }, type: { type: 'string' } },
});
const [dir, name, purpose = 'TODO: purpose'] = positionals;
if (!dir || !name || positionals.length > 3) usageError('new-lib', 'give <dir> <name> ["purpose"]');
if (!scopes.includes(values.scope))
  usageError('new-lib', `--scope must be one of ${scopes.join(', ')}`);
if (!types.includes(values.type))
  usageError('new-lib', `--type must be one of ${types.join(', ')}`);
const root = path.join('libs', dir);
if (fs.existsSync(root)) {
  console.error(`${root} exists`);
  process.exit(1);
}
const up = path.relative(root, '.');
const write = (file, text) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
write(
  'project.json',
  JSON.stringify(
    {
      name,
      $schema: `${up}/node_modules/nx/schemas/project-schema.json`,
      sourceRoot: `${root}/src`,
      projectType: 'library',
      tags: [`scope:${values.scope}`, `type:${values.type}`],
      targets: {
        lint: { command: `eslint ${root}` },
        typecheck: { command: `tsc --noEmit -p ${root}/tsconfig.json` },
        test: { command: `jest -c ${root}/jest.config.cjs` },
      },
    },
    null,
    2,
  ) + '\n',
);
write(
  'tsconfig.json',
  JSON.stringify({ extends: `${up}/tsconfig.base.json`, include: ['src/**/*.ts'] }, null, 2) + '\n',
);
write(
  'jest.config.cjs',
  `const preset = require('${up}/jest.preset.js');\n\nmodule.exports = { ...preset, displayName: '${name}', roots: ['<rootDir>/${root}'] };\n`,
);
write('src/index.ts', `export {};\n`);
write(
  'README.md',
  `# @genhub/${name}\n\n${purpose}\n\n- **Tags**: \`scope:${values.scope}\`, \`type:${values.type}\`\n- **Exports**: see \`src/index.ts\`.\n- **Who may import it**: see the dependency rules in \`eslint.config.mjs\`.\n- **Tests**: \`npx nx test ${name}\`\n\n## Do not\n\n- Import it by a deep path: use \`@genhub/${name}\` only.\n`,
);
const base = JSON.parse(fs.readFileSync('tsconfig.base.json', 'utf8'));
base.compilerOptions.paths[`@genhub/${name}`] = [`${root}/src/index.ts`];
base.compilerOptions.paths = Object.fromEntries(
  Object.entries(base.compilerOptions.paths).sort(([a], [b]) => a.localeCompare(b)),
);
fs.writeFileSync('tsconfig.base.json', JSON.stringify(base, null, 2) + '\n');
console.log(`created ${root} as @genhub/${name}`);
