#!/usr/bin/env node
// `npm run admin -- <command> [args]`: the admin API from a terminal (see `npm run admin -- --help`).
// The command line is checked before anything is started: --help and bad usage
// need neither a database nor, for --help, a build (the CLI answers from its sources).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build, resolveEnvironment } from './lib/environment.mjs';
import { entry, root } from './lib/paths.mjs';

const argv = process.argv.slice(2);
const isHelp = (arg) => arg === '--help' || arg === '-h';

/** Runs the CLI's usage check; prints its help or its one error line and exits unless the command would run. */
function checkUsage(cli) {
  const result = spawnSync(process.execPath, [...cli, ...argv], {
    env: { ...process.env, ADMIN_CLI_USAGE_ONLY: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (result.status === 0 && !result.stdout) return;
  process.stdout.write(result.stdout ?? '');
  process.exit(result.status ?? 1);
}

if (argv.length === 0 || argv.some(isHelp) || argv[0].startsWith('-'))
  checkUsage([
    '-r',
    path.join(root, 'tools/build/register-ts.cjs'),
    path.join(root, 'apps/gateway/src/cli/admin.ts'),
  ]);
build(['gateway']);
checkUsage([entry('gateway', 'cli/admin')]);
const { env, stop } = await resolveEnvironment({ needRedis: true });
const result = spawnSync(process.execPath, [entry('gateway', 'cli/admin'), ...argv], {
  env,
  stdio: 'inherit',
});
await stop();
process.exit(result.status ?? 1);
