import { CreateBillingSchema1763700000300 } from './1763700000300-CreateBillingSchema';
import { IndexRecordsForExport1763700000301 } from './1763700000301-IndexRecordsForExport';
import { AddKeySpend1763700000302 } from './1763700000302-AddKeySpend';
import { TimeOrderedRecordIds1763700000303 } from './1763700000303-TimeOrderedRecordIds';

/** This domain's migrations, oldest first. Composed with the other domains' by the migrate command. */
export const BILLING_MIGRATIONS = [
  CreateBillingSchema1763700000300,
  IndexRecordsForExport1763700000301,
  AddKeySpend1763700000302,
  TimeOrderedRecordIds1763700000303,
];
