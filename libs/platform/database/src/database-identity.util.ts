import type { DataSource } from 'typeorm';

/**
 * Which database this is, as the installation's identity: the PostgreSQL
 * cluster's system identifier (fixed at initdb, different for every cluster,
 * kept by its physical replicas) and the database's name. `description` adds
 * the address it was reached at, for people; it never carries credentials.
 */
export async function databaseIdentity(
  dataSource: Pick<DataSource, 'query'>,
  url: string,
): Promise<{ id: string; description: string }> {
  const [row]: { system: string; database: string }[] = await dataSource.query(
    `SELECT system_identifier::text AS system, current_database() AS database FROM pg_control_system()`,
  );
  const { hostname, port } = new URL(url);
  const address = hostname ? ` at ${hostname}:${port || 5432}` : '';
  return {
    id: `${row.system}/${row.database}`,
    description: `database ${row.database}${address} (PostgreSQL system ${row.system})`,
  };
}
