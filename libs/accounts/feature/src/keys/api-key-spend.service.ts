import { Injectable } from '@nestjs/common';
import type { StoredApiKey } from '@genhub/accounts-data-access';

/**
 * What each key has spent in its spend limit's current period (issue 37): the
 * one place the key answers (admin PATCH, `/api/v3/keys`) read `spent` from.
 */
@Injectable()
export class ApiKeySpend {
  /** Micro-units per key, in the order of `keys`. */
  async spentUnits(keys: readonly StoredApiKey[]): Promise<number[]> {
    // TODO(issue 37 ledger): read each key's spend through the AccountBalances port.
    return keys.map(() => 0);
  }
}
