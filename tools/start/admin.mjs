#!/usr/bin/env node
// `npm run admin -- <command> [args]`: the admin API from a terminal (see `npm run admin -- help`).
import { spawnSync } from 'node:child_process';
import { build, resolveEnvironment } from './lib/environment.mjs';
import { entry } from './lib/paths.mjs';

build(['gateway']);
const { env, stop } = await resolveEnvironment({ needRedis: true });
const result = spawnSync(
  process.execPath,
  [entry('gateway', 'cli/admin'), ...process.argv.slice(2)],
  {
    env,
    stdio: 'inherit',
  },
);
await stop();
process.exit(result.status ?? 1);
