import { expectSoleProcessor } from '@genhub/testing';
import { WorkerModule } from './worker.module';

/** One job name, one queue, one processor: the webhook-dispatcher is the only consumer of its queue's jobs. */
it('the webhook-dispatcher has exactly one processor, on its own queue, handling every job routed there', () => {
  expectSoleProcessor(
    WorkerModule.forRoot({ ...process.env, LOG_LEVEL: 'silent' }),
    'webhook-dispatcher',
  );
});
