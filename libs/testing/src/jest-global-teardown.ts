import { deleteQueuePrefix } from './redis-cleanup';
import { dropTestDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  if (process.env.GENHUB_TEST_DATABASE) await dropTestDatabase(process.env.GENHUB_TEST_DATABASE);
  if (process.env.QUEUE_PREFIX && process.env.REDIS_URL) {
    await deleteQueuePrefix(process.env.REDIS_URL, process.env.QUEUE_PREFIX);
  }
}
