import { RedisConfig, loadConfig } from '@genhub/config';
import { createRedisClient, primariesOf } from '@genhub/queue';

/**
 * Deletes every key under one test run's prefix (never anything else), on the
 * Redis at `redis` (a standalone URL) or of a configuration of any topology:
 * on a Redis Cluster every primary is scanned.
 */
export async function deleteQueuePrefix(
  redis: string | RedisConfig,
  prefix: string,
): Promise<void> {
  const config = typeof redis === 'string' ? loadConfig(RedisConfig, { REDIS_URL: redis }) : redis;
  const client = createRedisClient(config, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await client.connect(); // a Cluster's resolves once its slots are known
    for (const node of primariesOf(client)) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        // One key per DEL: keys of different slots cannot share a command on a cluster.
        if (keys.length) await Promise.all(keys.map((key) => node.del(key)));
      } while (cursor !== '0');
    }
  } finally {
    client.disconnect();
  }
}
