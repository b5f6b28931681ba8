// Observes completion the way sync waiters do: the task-terminal notice the
// worker publishes on Redis after its commit (message: task id).
import Redis from 'ioredis';
import { now } from './load.mjs';

export async function watchTerminalNotices(redisUrl, prefix) {
  const seen = new Map();
  const redis = new Redis(redisUrl);
  redis.on('message', (_channel, id) => {
    if (!seen.has(id)) seen.set(id, now());
  });
  await redis.subscribe(`${prefix}:task-terminal`);
  return {
    seen,
    async waitFor(ids, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && ids.some((id) => !seen.has(id)))
        await new Promise((r) => setTimeout(r, 50));
      return ids.filter((id) => seen.has(id)).length;
    },
    close: () => redis.quit(),
  };
}
