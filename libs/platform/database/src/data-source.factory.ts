import { types } from 'pg';
import { DataSource, DataSourceOptions, MixedList } from 'typeorm';
import { postgresConnection } from '@genhub/config';
import { postgresTlsError } from './postgres-tls-error.util';

// int8 (bigint) columns hold money in micro-units and counts; every value we
// store stays far below 2^53, so they are read as plain numbers.
types.setTypeParser(types.builtins.INT8, (value: string) => Number(value));

export interface DataSourceInput {
  /** DATABASE_URL: its `sslmode` is honoured (decision 0138). */
  url: string;
  /** DATABASE_TLS_CA: a PEM file's path or PEM text. */
  tlsCa?: string;
  poolSize?: number;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations?: MixedList<Function | string>;
  applicationName?: string;
}

/** The one way this platform connects to PostgreSQL. Never synchronizes: migrations own the schema. */
export function dataSourceOptions(input: DataSourceInput): DataSourceOptions {
  const { connectionString, ssl } = postgresConnection(input.url, input.tlsCa);
  return {
    type: 'postgres',
    url: connectionString,
    ssl,
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

/**
 * Connects a data source made from `dataSourceOptions`; a TLS failure becomes
 * a PostgresTlsError whose one line says what to change (a wrong CA, a host
 * name the certificate does not hold), other failures stand as they are.
 */
export async function initializeDataSource(dataSource: DataSource): Promise<DataSource> {
  try {
    return await dataSource.initialize();
  } catch (error) {
    const { url, ssl } = dataSource.options as { url?: string; ssl?: unknown };
    const caSet = typeof ssl === 'object' && ssl !== null && 'ca' in ssl;
    throw postgresTlsError(error, { url: url ?? '', caSet }) ?? error;
  }
}

/** Runs every pending migration in one transaction each; returns the names applied. */
export async function runMigrations(input: DataSourceInput): Promise<string[]> {
  const dataSource = await initializeDataSource(new DataSource(dataSourceOptions(input)));
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}
