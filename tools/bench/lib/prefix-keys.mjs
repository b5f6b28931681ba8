// What the platform keeps in Redis under its queue prefix: the key names and
// their memory (MEMORY USAGE), read with SCAN so other users' keys stay untouched.
import { Redis } from 'ioredis';

/**
 * Every key under `prefix:` with its size in bytes (`sizes`), `bytes` their sum,
 * and `expiring`: the names of those with a time to live (locks and the like,
 * which go away by themselves).
 */
export async function prefixKeys(redisUrl, prefix) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const names = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      names.push(...found);
    } while (cursor !== '0');
    const sizes = new Map();
    const expiring = new Set();
    for (let i = 0; i < names.length; i += 1000) {
      const batch = names.slice(i, i + 1000);
      const pipeline = redis.pipeline();
      // SAMPLES 0: every element counted, not an estimate from five.
      for (const name of batch) pipeline.memory('USAGE', name, 'SAMPLES', 0).pttl(name);
      const answers = await pipeline.exec();
      batch.forEach((name, j) => {
        sizes.set(name, Number(answers[2 * j][1] ?? 0));
        if (Number(answers[2 * j + 1][1]) >= 0) expiring.add(name);
      });
    }
    return { sizes, expiring, bytes: [...sizes.values()].reduce((a, b) => a + b, 0) };
  } finally {
    redis.disconnect();
  }
}
