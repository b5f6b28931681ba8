#!/usr/bin/env node
// `npm run db:migrate`: applies every pending migration to DATABASE_URL (or to
// the embedded PostgreSQL when it is unset).
import { spawnSync } from 'node:child_process';
import { parseCommandLine } from '../lib/command-line.mjs';
import { build, log, resolveEnvironment } from './lib/environment.mjs';
import { entry } from './lib/paths.mjs';

const HELP = `usage: npm run db:migrate

Builds the gateway, then applies every domain's pending migrations, in order, to
DATABASE_URL, or, when it is unset, to the embedded PostgreSQL of npm start
(.data/postgres; started for the run unless it is running). Prints the migrations
applied or that the database is up to date; exit 1 when one fails. npm start
migrates too.

options:
  -h, --help   print this help

environment: DATABASE_URL, the database (postgres://…, its sslmode honoured; default:
the embedded one); DATABASE_TLS_CA, the CA its certificate is verified against.`;

// Before the build and the database: --help and bad usage need neither.
parseCommandLine({ name: 'db:migrate', usage: HELP });
build(['gateway']);
const { env, stop } = await resolveEnvironment({ needRedis: false });
const result = spawnSync(process.execPath, [entry('gateway', 'cli/migrate')], {
  env,
  stdio: 'inherit',
});
await stop();
if (result.status !== 0) log('migration failed');
process.exit(result.status ?? 1);
