// eslint-disable-next-line @nx/enforce-module-boundaries -- a plain Node hook, not a lib
require('../../../tools/build/register-aliases.cjs');

export default async function globalTeardown(): Promise<void> {
  const { deleteQueuePrefix } =
    require('./redis-cleanup.util') as typeof import('./redis-cleanup.util');
  const { dropTestDatabase } =
    require('./test-database.util') as typeof import('./test-database.util');
  if (process.env.GENHUB_TEST_DATABASE) await dropTestDatabase(process.env.GENHUB_TEST_DATABASE);
  if (process.env.QUEUE_PREFIX && process.env.REDIS_URL) {
    await deleteQueuePrefix(process.env.REDIS_URL, process.env.QUEUE_PREFIX);
  }
}
