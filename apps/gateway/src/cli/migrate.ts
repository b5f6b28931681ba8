import 'reflect-metadata';
import { DatabaseConfig, loadConfig } from '@genhub/config';
import { runMigrations } from '@genhub/database';
import { ALL_MIGRATIONS } from '@genhub/schema';

/** `npm run db:migrate`: applies pending migrations of every domain, then exits. */
async function main(): Promise<void> {
  const config = loadConfig(DatabaseConfig, process.env);
  const applied = await runMigrations({
    url: config.DATABASE_URL,
    migrations: ALL_MIGRATIONS,
    applicationName: 'migrate',
  });
  process.stdout.write(
    applied.length
      ? `applied ${applied.length} migration(s): ${applied.join(', ')}\n`
      : 'database is up to date\n',
  );
}

main().catch((error: unknown) => {
  // One line: a configuration error, an unreachable database, a failed migration.
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const code = (error as { code?: unknown }).code;
  process.stderr.write(
    `migrate: ${typeof code === 'string' && !message.includes(code) ? `${code}: ` : ''}${message}\n`,
  );
  process.exit(1);
});
