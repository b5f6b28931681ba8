import { getQueueToken } from '@nestjs/bullmq';
import type { Provider } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { RedisConfig } from '@genhub/config';
import { QueueName } from '../queue.constants';
import type { RedisClient } from '../redis-connection.util';
import { FairStage } from './fair-stage';

/**
 * How long a taken task counts against its account's cap without its run
 * reporting an end: the longest model time limit (1 h) and its re-runs
 * after stalls. Only a lost end report (its worker died, or Redis was away
 * at that moment) ever waits this long.
 */
export const RUNNING_LEASE_MS = 2 * 3_600_000;

/** The fair stage on a run queue's own connection (its topology, its hash-tagged prefix). */
export function fairStageOn(tasks: Queue, prefix: string, runningLeaseMs = RUNNING_LEASE_MS) {
  return new FairStage(
    async () => (await tasks.getBackend().client) as unknown as RedisClient,
    prefix,
    { runningLeaseMs },
  );
}

/** The fair stage of the app's run queue. */
export const fairStageProvider: Provider = {
  provide: FairStage,
  inject: [getQueueToken(QueueName.Tasks), RedisConfig],
  useFactory: (tasks: Queue, redis: RedisConfig) => fairStageOn(tasks, redis.QUEUE_PREFIX),
};
