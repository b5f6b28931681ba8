import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { loadConfig, RedisConfig } from '@genhub/config';
import { claimQueuePrefix, ownerKey, QueuePrefixTakenError } from './queue-prefix-claim.util';
import { QueuePrefixOwnership } from './queue-prefix-ownership.service';

/** Claims on the machine's real Redis, each under a prefix of its own (removed afterwards). */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ours = { id: '7001/genhub', description: 'database genhub at 127.0.0.1:54329 (system 7001)' };
const theirs = {
  id: '7002/genhub',
  description: 'database genhub at 127.0.0.1:5432 (system 7002)',
};

describe('an installation owns its queue prefix', () => {
  const redis = new Redis(REDIS_URL);
  const prefixes: string[] = [];
  const newPrefix = () => {
    const prefix = `claim-test-${randomUUID().slice(0, 8)}`;
    prefixes.push(prefix);
    return prefix;
  };
  afterAll(async () => {
    await redis.del(...prefixes.map(ownerKey));
    redis.disconnect();
  });

  it('is claimed by its first user, then known as its own; another database is refused', async () => {
    const prefix = newPrefix();
    expect(await claimQueuePrefix(redis, prefix, ours)).toBe('claimed');
    expect(await claimQueuePrefix(redis, prefix, ours)).toBe('owned');
    const refusal = claimQueuePrefix(redis, prefix, theirs);
    await expect(refusal).rejects.toBeInstanceOf(QueuePrefixTakenError);
    await expect(refusal).rejects.toThrow(
      new RegExp(
        `^QUEUE_PREFIX "${prefix}" belongs to another installation \\(database genhub at 127\\.0\\.0\\.1:54329 \\(system 7001\\), since \\d{4}-.*\\), not to this one \\(database genhub at 127\\.0\\.0\\.1:5432 \\(system 7002\\)\\): give each installation a QUEUE_PREFIX of its own`,
      ),
    );
    // The refusal changed nothing: the prefix is still ours.
    expect(JSON.parse((await redis.get(ownerKey(prefix))) as string)).toMatchObject(ours);
  });

  it('goes to exactly one of two databases claiming it at once', async () => {
    const prefix = newPrefix();
    const outcomes = await Promise.allSettled([
      claimQueuePrefix(redis, prefix, ours),
      claimQueuePrefix(redis, prefix, theirs),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  describe('QueuePrefixOwnership, at an app’s start-up', () => {
    const ownership = (prefix: string, url = REDIS_URL, who = ours) =>
      new QueuePrefixOwnership(
        loadConfig(RedisConfig, { REDIS_URL: url, QUEUE_PREFIX: prefix }),
        async () => who,
      );

    it('lets jobs move once the prefix is the app’s own', async () => {
      const service = ownership(newPrefix());
      expect(() => service.assertVerified()).toThrow('not checked yet');
      await service.onModuleInit();
      expect(service.isVerified).toBe(true);
      await expect(service.whenVerified()).resolves.toBeUndefined();
      await service.onApplicationShutdown();
    });

    it('fails the start when another database owns the prefix', async () => {
      const prefix = newPrefix();
      await claimQueuePrefix(redis, prefix, theirs);
      const service = ownership(prefix);
      await expect(service.onModuleInit()).rejects.toBeInstanceOf(QueuePrefixTakenError);
      expect(service.isVerified).toBe(false);
      await service.onApplicationShutdown();
    });

    it('starts while Redis is away, holding every job back until the check passes', async () => {
      // Nothing listens on port 1: the check cannot be made.
      const service = ownership(newPrefix(), 'redis://127.0.0.1:1');
      await service.onModuleInit();
      expect(service.isVerified).toBe(false);
      const state = await Promise.race([
        service.whenVerified().then(() => 'verified'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 1500)),
      ]);
      expect(state).toBe('waiting');
      await service.onApplicationShutdown();
    });

    it('checks nothing without an identity source (a test module of one feature)', async () => {
      const service = new QueuePrefixOwnership(
        loadConfig(RedisConfig, { REDIS_URL, QUEUE_PREFIX: newPrefix() }),
      );
      await service.onModuleInit();
      expect(service.isVerified).toBe(true);
    });
  });
});
