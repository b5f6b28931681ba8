import { types } from 'pg';
import { DataSource, DataSourceOptions, MixedList } from 'typeorm';

// int8 (bigint) columns hold money in micro-units and counts; every value we
// store stays far below 2^53, so they are read as plain numbers.
types.setTypeParser(types.builtins.INT8, (value: string) => Number(value));

export interface DataSourceInput {
  url: string;
  poolSize?: number;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations?: MixedList<Function | string>;
  applicationName?: string;
}

/** The one way this platform connects to PostgreSQL. Never synchronizes: migrations own the schema. */
export function dataSourceOptions(input: DataSourceInput): DataSourceOptions {
  return {
    type: 'postgres',
    url: input.url,
    entities: input.entities ?? [],
    migrations: input.migrations ?? [],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: input.applicationName,
    extra: {
      max: input.poolSize ?? 10,
      // Fail fast when PostgreSQL is down instead of queueing requests forever.
      connectionTimeoutMillis: 1000,
      idleTimeoutMillis: 30_000,
      // Queries queued on one connection are written at once, not each after the
      // one before it has answered: a batch transaction's statements (GroupCommit)
      // reach PostgreSQL together (decision 0118). One query at a time is unchanged.
      pipeline: true,
    },
  };
}

/** Runs every pending migration in one transaction each; returns the names applied. */
export async function runMigrations(input: DataSourceInput): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions(input));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}
