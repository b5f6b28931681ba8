import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';

const logger = new Logger('Queue');

/**
 * A BullMQ queue whose connection errors (Redis away, a failover under way, a
 * refused certificate) are warning lines of the log from its first moment.
 * Without a listener BullMQ prints each one to stderr as a raw stack trace,
 * and a queue connects as it is made, before any module hook could listen;
 * the connection retries by itself either way.
 */
export class LoggedQueue extends Queue {
  constructor(...args: ConstructorParameters<typeof Queue>) {
    super(...args);
    this.on('error', (error) => logger.warn(`queue ${this.name}: redis: ${error.message}`));
  }
}
