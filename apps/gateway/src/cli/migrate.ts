import 'reflect-metadata';
import { DatabaseConfig, loadConfig, ConfigError } from '@genhub/config';
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
  process.stderr.write(
    `migrate: ${error instanceof ConfigError ? error.message : (error as Error).stack}\n`,
  );
  process.exit(1);
});
