import { Injectable } from '@nestjs/common';
import { LedgerRepository } from '@genhub/billing-data-access';
import { type Currency, fromMicros } from '@genhub/money';

export interface GetBalanceInput {
  accountId: string;
  /** The account's currency, used when the ledger has no balance row yet. */
  currency: Currency;
}

export interface BalanceResult {
  /**
   * Net of open reservations (docs/interface.md, "Billing semantics"): what the account may
   * still spend.
   */
  balance: number;
  currency: Currency;
}

@Injectable()
export class GetBalanceUseCase {
  constructor(private readonly ledger: LedgerRepository) {}

  async execute(input: GetBalanceInput): Promise<BalanceResult> {
    const view = await this.ledger.balanceOf(input.accountId);
    if (!view) return { balance: 0, currency: input.currency };
    return { balance: fromMicros(view.balanceUnits - view.reservedUnits), currency: view.currency };
  }
}
