import type { RedisConfig } from '@genhub/config';
import { createRedisClient, type RedisClient } from './redis-connection.util';

/**
 * Who an installation is: its database. Two apps with the same `id` share one
 * database, so they are one installation; `description` names it for people.
 */
export interface InstallationIdentity {
  id: string;
  description: string;
}

/** The key under a queue prefix naming the installation that owns it. */
export function ownerKey(prefix: string): string {
  return `${prefix}:installation`;
}

/** The queue prefix is owned by another installation (another database): this app must not use it. */
export class QueuePrefixTakenError extends Error {
  constructor(prefix: string, owner: { description?: string; claimed_at?: string }, us: string) {
    super(
      `QUEUE_PREFIX "${prefix}" belongs to another installation (${owner.description ?? 'unknown'}` +
        `${owner.claimed_at ? `, since ${owner.claimed_at}` : ''}), not to this one (${us}): ` +
        'give each installation a QUEUE_PREFIX of its own (docs/operations.md, "One Redis, many installations")',
    );
    this.name = 'QueuePrefixTakenError';
  }
}

/**
 * Claims `prefix` for `us` on first use (SET NX, so two apps starting together
 * agree), else checks that `us` is its owner. Throws QueuePrefixTakenError when
 * another installation owns it; Redis errors propagate as they are.
 */
export async function claimQueuePrefix(
  redis: RedisClient,
  prefix: string,
  us: InstallationIdentity,
): Promise<'claimed' | 'owned'> {
  const key = ownerKey(prefix);
  const record = JSON.stringify({
    id: us.id,
    description: us.description,
    claimed_at: new Date().toISOString(),
  });
  if ((await redis.set(key, record, 'NX')) === 'OK') return 'claimed';
  const stored = await redis.get(key);
  if (stored === null) return claimQueuePrefix(redis, prefix, us); // deleted meanwhile
  let owner: { id?: unknown; description?: string; claimed_at?: string };
  try {
    owner = JSON.parse(stored) as typeof owner;
  } catch {
    owner = { description: `an unreadable record: ${stored.slice(0, 80)}` };
  }
  if (owner.id === us.id) return 'owned';
  throw new QueuePrefixTakenError(prefix, owner, us.description);
}

/**
 * Makes `us` the owner whoever owned the prefix (an operator's decision: the
 * database moved, a restore); returns the previous owner's description.
 */
export async function takeOverQueuePrefix(
  redis: RedisClient,
  prefix: string,
  us: InstallationIdentity,
): Promise<string | undefined> {
  const record = JSON.stringify({ ...us, claimed_at: new Date().toISOString() });
  const previous = await redis.set(ownerKey(prefix), record, 'GET');
  if (previous === null) return undefined;
  try {
    return (JSON.parse(previous) as { description?: string }).description;
  } catch {
    return previous;
  }
}

/** `check` over a connection of its own, for one use (a CLI command, a retry). */
export async function withQueueRedis<T>(
  config: RedisConfig,
  check: (redis: RedisClient) => Promise<T>,
): Promise<T> {
  const redis = createRedisClient(config, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined); // the failed command says why
  try {
    return await check(redis);
  } finally {
    redis.disconnect();
  }
}

/** claimQueuePrefix over a connection of its own. */
export function checkQueuePrefix(
  config: RedisConfig,
  us: InstallationIdentity,
): Promise<'claimed' | 'owned'> {
  return withQueueRedis(config, (redis) => claimQueuePrefix(redis, config.QUEUE_PREFIX, us));
}
