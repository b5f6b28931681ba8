import { Injectable } from '@nestjs/common';
import type { AccountScheduling, AccountSchedulingShare } from '@genhub/accounts-feature';
import { RedisConfig } from '@genhub/config';
import { LEVEL_WEIGHTS } from '@genhub/contracts';
import { FairStage, RUNNING_LEASE_MS, withQueueRedis } from '@genhub/queue';

/**
 * The admin CLI's notice of a new level or cap to the fair stage (issue 36):
 * the stage the gateways and workers use (QUEUE_PREFIX, the run queue's
 * topology), over a connection of its own for the one call, which fails fast
 * when Redis is away (the change stands; the account's next submit carries it).
 */
@Injectable()
export class CliAccountScheduling implements AccountScheduling {
  constructor(private readonly redis: RedisConfig) {}

  shareChanged(accountId: string, share: AccountSchedulingShare): Promise<void> {
    return withQueueRedis(this.redis, (client) =>
      new FairStage(async () => client, this.redis.QUEUE_PREFIX, {
        runningLeaseMs: RUNNING_LEASE_MS,
      }).setShare(accountId, {
        weight: LEVEL_WEIGHTS[share.level],
        maxConcurrentTasks: share.maxConcurrentTasks,
      }),
    );
  }
}
