import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { QueueName } from './queue.constants';

/**
 * A queue's connection errors (Redis away, a failover under way) as warning
 * lines of the log. Without a listener BullMQ prints each one to stderr as a
 * raw stack trace; the connection retries by itself either way.
 */
@Injectable()
export class QueueConnectionLog implements OnModuleInit {
  private readonly logger = new Logger('Queue');

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    for (const name of Object.values(QueueName))
      this.moduleRef
        .get<Queue>(getQueueToken(name), { strict: false })
        .on('error', (error) => this.logger.warn(`queue ${name}: redis: ${error.message}`));
  }
}
