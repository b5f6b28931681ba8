#!/usr/bin/env node
// `npm run db:migrate`: applies every pending migration to DATABASE_URL (or to
// the embedded PostgreSQL when it is unset).
import { spawnSync } from 'node:child_process';
import { build, log, resolveEnvironment } from './lib/environment.mjs';
import { entry } from './lib/paths.mjs';

build(['gateway']);
const { env, stop } = await resolveEnvironment({ needRedis: false });
const result = spawnSync(process.execPath, [entry('gateway', 'cli/migrate')], {
  env,
  stdio: 'inherit',
});
await stop();
if (result.status !== 0) log('migration failed');
process.exit(result.status ?? 1);
