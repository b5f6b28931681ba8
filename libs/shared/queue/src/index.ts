export * from './pubsub.service';
export * from './job-payloads.util';
export * from './queue.constants';
export * from './queue.module';
export * from './redis-connection.util';
export * from './redis-outage.util';
export * from './queue-prefix-claim.util';
export * from './queue-prefix-ownership.service';
