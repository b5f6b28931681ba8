import { expectSoleProcessor } from '@genhub/testing';
import { BillingModule } from './billing.module';

/** One job name, one queue, one processor: the billing is the only consumer of its queue's jobs. */
it('the billing has exactly one processor, on its own queue, handling every job routed there', () => {
  expectSoleProcessor(BillingModule.forRoot({ ...process.env, LOG_LEVEL: 'silent' }), 'billing');
});
