import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { DatabaseConfig, loadConfig } from '@genhub/config';
import { runMigrations } from '@genhub/database';
import { ALL_MIGRATIONS } from '@genhub/schema';

const HELP = `usage: node dist/gateway/apps/gateway/src/cli/migrate.js   (from a checkout: npm run db:migrate)

Applies every domain's pending migrations to DATABASE_URL, in order, then exits
(the apps never migrate on boot). Prints the migrations applied, or that the
database is up to date; exit 1 when one fails.

options:
  -h, --help   print this help

environment: DATABASE_URL, the database (postgres://…, its sslmode honoured);
DATABASE_TLS_CA, the CA bundle its certificate is verified against.
`;

/** --help prints the usage and exits 0; any other argument: one line, exit 2 (as tools/lib/command-line.mjs). */
function commandLine(argv: string[]): void {
  try {
    if (parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } } }).values.help) {
      process.stdout.write(HELP);
      process.exit(0);
    }
  } catch (error) {
    process.stderr.write(`migrate: ${(error as Error).message.split('. ')[0]} (see --help)\n`);
    process.exit(2);
  }
}

/** `npm run db:migrate`: applies pending migrations of every domain, then exits. */
async function main(): Promise<void> {
  const config = loadConfig(DatabaseConfig, process.env);
  const applied = await runMigrations({
    url: config.DATABASE_URL,
    tlsCa: config.DATABASE_TLS_CA,
    migrations: ALL_MIGRATIONS,
    applicationName: 'migrate',
  });
  process.stdout.write(
    applied.length
      ? `applied ${applied.length} migration(s): ${applied.join(', ')}\n`
      : 'database is up to date\n',
  );
}

commandLine(process.argv.slice(2));
main().catch((error: unknown) => {
  // One line: a configuration error, an unreachable database, a failed migration.
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const code = (error as { code?: unknown }).code;
  process.stderr.write(
    `migrate: ${typeof code === 'string' && !message.includes(code) ? `${code}: ` : ''}${message}\n`,
  );
  process.exit(1);
});
