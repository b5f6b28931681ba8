import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { postgresConnection } from '@genhub/config';
import { runMigrations } from '@genhub/database';
import { ALL_MIGRATIONS } from '@genhub/schema';

/** Where tests create their databases: the machine's PostgreSQL unless told otherwise. */
export const TEST_SERVER_URL =
  process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates a fresh, migrated database for one test run; returns its URL. */
export async function createTestDatabase(label = 'test'): Promise<{ url: string; name: string }> {
  const name = `genhub_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = new Client(postgresConnection(TEST_SERVER_URL));
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(TEST_SERVER_URL, name);
  await runMigrations({ url, migrations: ALL_MIGRATIONS });
  return { url, name };
}

export async function dropTestDatabase(name: string): Promise<void> {
  const admin = new Client(postgresConnection(TEST_SERVER_URL));
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** A queue prefix no other run uses, so tests never touch shared Redis data. */
export function testQueuePrefix(label = 'test'): string {
  return `t-${label.replace(/\W/g, '')}-${randomBytes(4).toString('hex')}`;
}
