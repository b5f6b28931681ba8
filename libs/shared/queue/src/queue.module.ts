import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { RedisConfig } from '@genhub/config';
import { PubSubService } from './pubsub.service';
import { QueueName } from './queue.constants';

export function redisConnection(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    // BullMQ workers need null; producers fail fast instead (see QueueProducer).
    maxRetriesPerRequest: null,
  };
}

/** BullMQ on Redis: the connection, the prefix and every queue of the platform. */
@Global()
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    const queues = BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name })));
    return {
      module: QueueModule,
      imports: [
        BullModule.forRootAsync({
          inject: [RedisConfig],
          useFactory: (redis: RedisConfig) => ({
            connection: redisConnection(redis.REDIS_URL),
            prefix: redis.QUEUE_PREFIX,
          }),
        }),
        queues,
      ],
      providers: [PubSubService],
      exports: [queues, PubSubService],
    };
  }
}
