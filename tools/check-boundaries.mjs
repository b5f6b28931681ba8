#!/usr/bin/env node
// Proves the module boundaries are enforced: plants imports that break them,
// expects `eslint` to reject each, and removes the plants whatever happens.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { parseCommandLine } from './lib/command-line.mjs';

parseCommandLine({
  name: 'check-boundaries',
  usage: `usage: node tools/check-boundaries.mjs

Proves the module boundaries are enforced: writes, one at a time, files whose
imports break them (an app or lib importing what its tags forbid), expects
eslint to reject each, and removes them whatever happens. Exit 1 when one passes.

options:
  -h, --help   print this help`,
});

const cases = [
  {
    file: 'apps/console/src/__boundary_probe__.ts',
    code: "import '@genhub/contracts/server';\n",
    why: 'the console importing server contracts',
  },
  {
    file: 'libs/shared/errors/src/__boundary_probe__.ts',
    code: "import '@genhub/tasks-feature';\n",
    why: 'shared lib importing a domain lib',
  },
  {
    file: 'libs/billing/data-access/src/__boundary_probe__.ts',
    code: "import '@genhub/tasks-data-access';\n",
    why: 'one domain importing another',
  },
  {
    file: 'libs/shared/contracts/src/__boundary_probe__.ts',
    code: "import '@nestjs/common';\n",
    why: 'browser contracts importing Nest',
  },
  {
    file: 'libs/tasks/feature/src/__boundary_probe__.ts',
    code: "import '@genhub/testing';\n",
    why: 'shipped code importing the testing lib',
  },
  {
    file: 'libs/tasks/data-access/src/__boundary_probe__.ts',
    code: "import '@genhub/tasks-feature';\n",
    why: 'data-access importing a feature lib',
  },
  {
    file: 'libs/chat/feature/src/__boundary_probe__.ts',
    code: "import '@genhub/tasks-feature';\n",
    why: 'chat importing the tasks domain',
  },
  {
    file: 'libs/billing/feature/src/__boundary_probe__.ts',
    code: "import '@genhub/task-engine';\n",
    why: 'a domain lib importing the task engine (decision 0132)',
  },
];
// The boundary rule reads Nx's project graph; make sure it is computed.
spawnSync('npx', ['nx', 'show', 'projects'], {
  stdio: 'ignore',
  env: { ...process.env, NX_DAEMON: 'false' },
});
let failed = 0;
for (const c of cases) {
  fs.writeFileSync(c.file, c.code);
  try {
    const r = spawnSync('npx', ['eslint', '--no-warn-ignored', c.file], { encoding: 'utf8' });
    const rejected =
      r.status !== 0 && /enforce-module-boundaries|no-restricted-imports/.test(r.stdout);
    console.log(`${rejected ? 'ok  ' : 'FAIL'} ${c.why} is rejected`);
    if (!rejected) failed++;
  } finally {
    fs.rmSync(c.file, { force: true });
  }
}
if (failed) {
  console.error(`${failed} boundary violation(s) passed lint`);
  process.exit(1);
}
