import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, FactoryProvider, Global, Module } from '@nestjs/common';
import { RedisConfig } from '@genhub/config';
import { PubSubService } from './pubsub.service';
import { LoggedQueue } from './logged-queue';
import { QueueName } from './queue.constants';
import {
  INSTALLATION_IDENTITY,
  type InstallationIdentitySource,
  QueuePrefixOwnership,
} from './queue-prefix-ownership.service';
import { bullConnection } from './redis-connection.util';

/**
 * BullMQ on Redis: every queue of the platform, each with its own connection
 * of the configured topology and the prefix. The workers of a queue take its
 * options (and duplicate a Cluster client for their blocking connection).
 */
@Global()
@Module({})
export class QueueModule {
  /**
   * `installation` says who this app is (its database): the prefix is then
   * claimed for it, and checked, before any job is added or taken under it
   * (QueuePrefixOwnership). Without it (a test module of one feature) nothing is checked.
   */
  static forRoot(
    options: {
      installation?: Omit<FactoryProvider<InstallationIdentitySource>, 'provide'>;
    } = {},
  ): DynamicModule {
    // Every queue Nest makes from here on logs its connection errors from birth.
    BullModule.queueClass = LoggedQueue;
    const queues = BullModule.registerQueueAsync(
      ...Object.values(QueueName).map((name) => ({
        name,
        inject: [RedisConfig],
        useFactory: (redis: RedisConfig) => ({
          connection: bullConnection(redis),
          prefix: redis.QUEUE_PREFIX,
          // A queue's Cluster client is its own, but BullMQ counts it shared and
          // close() leaves it open; with options this finds the connection closed.
          forceDisconnectOnShutdown: true,
        }),
      })),
    );
    return {
      module: QueueModule,
      imports: [queues],
      providers: [
        PubSubService,
        QueuePrefixOwnership,
        ...(options.installation
          ? [{ provide: INSTALLATION_IDENTITY, ...options.installation }]
          : []),
      ],
      exports: [queues, PubSubService, QueuePrefixOwnership],
    };
  }
}
