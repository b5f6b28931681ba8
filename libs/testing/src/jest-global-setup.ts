// Jest's globalSetup ignores moduleNameMapper: resolve @genhub/* aliases first.
// eslint-disable-next-line @nx/enforce-module-boundaries -- a plain Node hook, not a lib
require('../../../tools/build/register-aliases.cjs');
import { randomBytes } from 'node:crypto';

/**
 * Jest globalSetup for integration tests: one migrated database and one queue
 * prefix per test run, and the deployment secret the gateway's modules need
 * (`API_KEY_PEPPER` has no default), handed to the workers through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const { createTestDatabase, testQueuePrefix } =
    require('./test-database.util') as typeof import('./test-database.util');
  const label = (process.env.JEST_PROJECT_LABEL ?? 'it').slice(0, 20);
  const db = await createTestDatabase(label);
  process.env.DATABASE_URL = db.url;
  process.env.GENHUB_TEST_DATABASE = db.name;
  process.env.QUEUE_PREFIX = testQueuePrefix(label);
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
  process.env.API_KEY_PEPPER ??= `test-run-${randomBytes(16).toString('hex')}`;
}
